/* Deprecated since 0.4.0: the road values moved to rmg/finish.h (the finish stage makes the
 * roads; the stage once called build is the connect stage). Include rmg/finish.h instead. */
#ifndef RMG_BUILD_H
#define RMG_BUILD_H

#include "rmg/finish.h"

#endif
