#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the CPU to start loading the cache line holding `address` (for a read soon),
/// without waiting for it: a hint, never a fault, whatever the address.
static inline void quarry_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Like quarry_prefetch, for a line about to be written.
static inline void quarry_prefetch_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
