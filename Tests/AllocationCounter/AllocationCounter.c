#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

// glibc's allocator under its internal names: forwarding to these needs no dlsym, which could
// itself allocate while the first malloc is being resolved.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// initial-exec: reading these never calls __tls_get_addr (which may allocate).
static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread uint64_t allocations __attribute__((tls_model("initial-exec")));

static inline void note_allocation(void) {
    if (counting) allocations += 1;
}

void allocation_counter_start(void) {
    allocations = 0;
    counting = 1;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ALLOCATOR_OWNED_BY_SANITIZER 1
#endif
#endif

#ifdef ALLOCATOR_OWNED_BY_SANITIZER
// ASan and TSan interpose the allocator themselves; forwarding to glibc behind their back
// crashes the process at load. Nothing is counted then, and an impossible count (not a false
// zero) makes any allocation-freedom test run under a sanitizer fail visibly.
uint64_t allocation_counter_stop(void) {
    counting = 0;
    return UINT64_MAX;
}
#else
uint64_t allocation_counter_stop(void) {
    counting = 0;
    return allocations;
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note_allocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    note_allocation();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
#endif
