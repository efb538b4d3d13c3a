// The system zlib (zlib1g-dev), for raw DEFLATE (Core Data's Z_MODELCACHE blobs).
//
// inflateInit2 is a function-like macro Swift cannot import, so it is wrapped here.
#ifndef QUARRY_CZLIB_SHIM_H
#define QUARRY_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 with the library's own version and stream size (what the macro passes).
static inline int quarry_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
