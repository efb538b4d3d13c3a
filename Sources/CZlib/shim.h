// The system zlib (zlib1g-dev), for raw DEFLATE (Core Data's Z_MODELCACHE blobs).
//
// inflateInit2 and deflateInit2 are function-like macros Swift cannot import, so they are
// wrapped here (deflate: tests and fuzz seeds make raw DEFLATE fixtures with it).
#ifndef QUARRY_CZLIB_SHIM_H
#define QUARRY_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 with the library's own version and stream size (what the macro passes).
static inline int quarry_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

/// deflateInit2 at `level`, deflated, with zlib's default memory level and strategy.
static inline int quarry_deflateInit2(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif
