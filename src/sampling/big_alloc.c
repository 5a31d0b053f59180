/* big_alloc.c: huge-page friendly zeroed allocations for large tables (see big_alloc.h). */
#include "sampling/big_alloc.h"

#include <stdint.h>
#include <sys/mman.h>

void *hs_big_calloc(size_t count, size_t size) {
    if (count == 0 || size == 0 || count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without huge pages the table just works */
#endif
    return p;
}

void hs_big_free(void *p, size_t count, size_t size) {
    if (p) munmap(p, count * size);
}
