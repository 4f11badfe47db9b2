#define _GNU_SOURCE
#include "RealtimeCallCounter.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

// initial-exec: reading these never calls __tls_get_addr (which may allocate or lock).
static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread struct realtime_calls calls __attribute__((tls_model("initial-exec")));

void realtime_call_counter_start(void) {
    calls = (struct realtime_calls){0, 0, 0, 0};
    counting = 1;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define INTERPOSED_BY_SANITIZER 1
#endif
#endif

#ifdef INTERPOSED_BY_SANITIZER
struct realtime_calls realtime_call_counter_stop(void) {
    counting = 0;
    return (struct realtime_calls){UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
}
#else
struct realtime_calls realtime_call_counter_stop(void) {
    counting = 0;
    return calls;
}

// The next definition of `name` (glibc's), looked up on first use; dlsym takes glibc's internal
// loader lock, not any of the functions interposed here.
#define FORWARD(type, name, params)                                              \
    static type(*next_##name) params;                                            \
    static inline type(*resolve_##name(void)) params {                           \
        if (next_##name == NULL) next_##name = (type(*) params)dlsym(RTLD_NEXT, #name); \
        return next_##name;                                                      \
    }

FORWARD(int, pthread_mutex_lock, (pthread_mutex_t *))
FORWARD(int, pthread_mutex_trylock, (pthread_mutex_t *))
FORWARD(int, pthread_mutex_timedlock, (pthread_mutex_t *, const struct timespec *))
FORWARD(int, pthread_rwlock_rdlock, (pthread_rwlock_t *))
FORWARD(int, pthread_rwlock_wrlock, (pthread_rwlock_t *))
FORWARD(int, pthread_cond_wait, (pthread_cond_t *, pthread_mutex_t *))
FORWARD(int, pthread_cond_timedwait, (pthread_cond_t *, pthread_mutex_t *, const struct timespec *))
FORWARD(int, sem_wait, (sem_t *))
FORWARD(int, sem_timedwait, (sem_t *, const struct timespec *))
FORWARD(int, nanosleep, (const struct timespec *, struct timespec *))
FORWARD(int, clock_nanosleep, (clockid_t, int, const struct timespec *, struct timespec *))
FORWARD(int, usleep, (useconds_t))
FORWARD(unsigned int, sleep, (unsigned int))
FORWARD(int, sched_yield, (void))

#define NOTE(kind) \
    if (counting) calls.kind += 1

int pthread_mutex_lock(pthread_mutex_t *mutex) { NOTE(locks); return resolve_pthread_mutex_lock()(mutex); }
int pthread_mutex_trylock(pthread_mutex_t *mutex) { NOTE(locks); return resolve_pthread_mutex_trylock()(mutex); }
int pthread_mutex_timedlock(pthread_mutex_t *mutex, const struct timespec *deadline) {
    NOTE(locks);
    return resolve_pthread_mutex_timedlock()(mutex, deadline);
}
int pthread_rwlock_rdlock(pthread_rwlock_t *lock) { NOTE(locks); return resolve_pthread_rwlock_rdlock()(lock); }
int pthread_rwlock_wrlock(pthread_rwlock_t *lock) { NOTE(locks); return resolve_pthread_rwlock_wrlock()(lock); }
int pthread_cond_wait(pthread_cond_t *condition, pthread_mutex_t *mutex) {
    NOTE(waits);
    return resolve_pthread_cond_wait()(condition, mutex);
}
int pthread_cond_timedwait(pthread_cond_t *condition, pthread_mutex_t *mutex, const struct timespec *deadline) {
    NOTE(waits);
    return resolve_pthread_cond_timedwait()(condition, mutex, deadline);
}
int sem_wait(sem_t *semaphore) { NOTE(waits); return resolve_sem_wait()(semaphore); }
int sem_timedwait(sem_t *semaphore, const struct timespec *deadline) {
    NOTE(waits);
    return resolve_sem_timedwait()(semaphore, deadline);
}
int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    NOTE(sleeps);
    return resolve_nanosleep()(duration, remaining);
}
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *duration, struct timespec *remaining) {
    NOTE(sleeps);
    return resolve_clock_nanosleep()(clock, flags, duration, remaining);
}
int usleep(useconds_t microseconds) { NOTE(sleeps); return resolve_usleep()(microseconds); }
unsigned int sleep(unsigned int seconds) { NOTE(sleeps); return resolve_sleep()(seconds); }
int sched_yield(void) { NOTE(yields); return resolve_sched_yield()(); }
#endif
