#ifndef CACHE_HINTS_H
#define CACHE_HINTS_H

// Software prefetch for the kernels, which Swift cannot express: clang's _mm_prefetch is a
// macro and __builtin_prefetch a builtin, neither of which Swift imports. A kernel that reads
// short runs far apart (a row band of each of many channel planes) gets a fraction of the
// memory bandwidth a sequential read gets, since the hardware prefetchers do not follow it;
// asking for the next runs while the current ones are worked on recovers most of it.

// Asks for the cache line holding `address` in all cache levels, to be read soon. Only a hint:
// it never faults, whatever the address.
static inline __attribute__((always_inline)) void cache_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

// Asks for the cache line holding `address`, to be written soon: a store to a line not in the
// cache waits for the line to be read first, which a row band of many channel planes makes as
// slow as such a read.
static inline __attribute__((always_inline)) void cache_prefetch_for_writing(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
