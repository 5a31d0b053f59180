/* heap_source.h: where the heap figure comes from (heap_source=; heap_usage.h picks and reads
 * it). Apart from heap_usage.h so that the option table (control/options.h), which stays pure
 * C, can name the choices without the JVM's headers. */
#ifndef HS_HEAP_SOURCE_H
#define HS_HEAP_SOURCE_H

typedef enum { HS_HEAP_AUTO = 0, HS_HEAP_VMSTRUCTS, HS_HEAP_GCINFO, HS_HEAP_NONE } hs_heap_source;

#endif
