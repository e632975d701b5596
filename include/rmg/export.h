/* librmg: symbol visibility. Every public function is declared with RMG_API. */
#ifndef RMG_EXPORT_H
#define RMG_EXPORT_H

#if defined(_WIN32)
#  if defined(RMG_BUILDING_LIBRARY) && !defined(RMG_STATIC)
#    define RMG_API __declspec(dllexport)
#  elif !defined(RMG_STATIC)
#    define RMG_API __declspec(dllimport)
#  else
#    define RMG_API
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define RMG_API __attribute__((visibility("default")))
#else
#  define RMG_API
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define RMG_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#  define RMG_DEPRECATED(msg)
#endif

/* The old names of renamed functions (ABI.md, Deprecation) warn where they are used; define
 * RMG_ALLOW_DEPRECATED before including the headers to silence them. They stay exported. */
#if defined(RMG_ALLOW_DEPRECATED) || defined(RMG_BUILDING_LIBRARY)
#  define RMG_DEPRECATED_NAME(msg)
#else
#  define RMG_DEPRECATED_NAME(msg) RMG_DEPRECATED(msg)
#endif

#endif
