/*
 * librmg: random map generator for Heroes-III-like games (HotA template system).
 * The umbrella header: include <rmg/rmg.h> for the whole public API.
 */
#ifndef RMG_RMG_H
#define RMG_RMG_H

#include "rmg/core.h"
#include "rmg/content.h"
#include "rmg/template.h"
#include "rmg/map.h"
#include "rmg/stage.h"
#include "rmg/guard.h"
#include "rmg/solve.h"
#include "rmg/place.h"
#include "rmg/finish.h"
#include "rmg/objects.h"
#include "rmg/h3m.h"
#include "rmg/balance.h"

#endif
