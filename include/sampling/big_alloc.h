/* big_alloc.h: zeroed memory for the agent's large hash tables.
 *
 * The hot path probes its tables at random positions, so with 4 KiB pages nearly every
 * probe of a multi-megabyte table is also a TLB miss. These tables are mapped directly
 * and, where the kernel allows it (transparent huge pages in "madvise" mode), backed by
 * huge pages. Untouched parts cost no memory, as with calloc. */
#ifndef HS_BIG_ALLOC_H
#define HS_BIG_ALLOC_H

#include <stddef.h>

/* count * size zeroed bytes, or NULL (overflow, out of memory). */
void *hs_big_calloc(size_t count, size_t size);
/* Frees what hs_big_calloc returned for the same count and size (NULL is fine). */
void hs_big_free(void *p, size_t count, size_t size);

#endif
