#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdint.h>

// Counts heap allocations (malloc, calloc, realloc, memalign, aligned_alloc, posix_memalign)
// made by one thread. Linking this target into a test executable interposes the C allocator
// for the whole process; every call forwards to glibc's own allocator, and only a thread that
// has started counting pays for more than a thread-local flag check.

// Starts counting on the calling thread, from zero.
void allocation_counter_start(void);

// Stops counting on the calling thread; returns the allocations made since the start.
uint64_t allocation_counter_stop(void);

#endif
