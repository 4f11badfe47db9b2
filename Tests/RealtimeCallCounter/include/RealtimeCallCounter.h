#ifndef REALTIME_CALL_COUNTER_H
#define REALTIME_CALL_COUNTER_H

#include <stdint.h>

// Counts the calls one thread makes that take a lock, wait for another thread, sleep or give up
// the processor: pthread_mutex_lock/trylock/timedlock, pthread_rwlock_rdlock/wrlock,
// pthread_cond_wait/timedwait, sem_wait/timedwait, nanosleep, clock_nanosleep, usleep, sleep and
// sched_yield. Linking this target into an executable interposes those functions for the whole
// process (each forwards to the next definition, found with dlsym(RTLD_NEXT)); only a thread
// that has started counting pays for more than a thread-local flag check. With AllocationCounter
// beside it, a test proves a real-time path allocation-, lock-, wait- and sleep-free.

struct realtime_calls {
    uint64_t locks;   // mutex and rwlock acquisitions, including try and timed forms
    uint64_t waits;   // condition-variable and semaphore waits
    uint64_t sleeps;  // nanosleep, clock_nanosleep, usleep, sleep
    uint64_t yields;  // sched_yield
};

// Starts counting on the calling thread, from zero.
void realtime_call_counter_start(void);

// Stops counting on the calling thread; returns the calls made since the start. Under
// AddressSanitizer or ThreadSanitizer (which interpose these functions themselves) nothing is
// counted and every count is UINT64_MAX, so that a test relying on it fails visibly.
struct realtime_calls realtime_call_counter_stop(void);

#endif
