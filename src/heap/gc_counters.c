/* gc_counters.c: CollectedHeap's collection counters (see gc_counters.h). */
#include "heap/gc_counters.h"

#include <stdio.h>
#include <string.h>

#include "heap/hotspot_tables.h"

bool hs_gc_counters_plausible(uint32_t total, uint32_t full) { return full <= total; }

static uint32_t load_u32(const unsigned char *p) {
    return __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
}

void hs_gc_counters_find(hs_gc_counters *c, jvmtiEnv *jvmti) {
    memset(c, 0, sizeof *c);
    hs_hotspot_tables tables;
    hs_hotspot_tables_load(&tables, jvmti);
    hs_vmstructs_field heap_field, total;
    if (!tables.structs_ok) {
        snprintf(c->why, sizeof c->why, "%.150s", tables.why);
        return;
    }
    if (hs_vmstructs_find(&tables.structs, "Universe", "_collectedHeap", &heap_field) != 0 ||
        !heap_field.is_static || heap_field.address == NULL ||
        hs_vmstructs_find(&tables.structs, "CollectedHeap", "_total_collections", &total) != 0 ||
        total.is_static || total.offset > 4096 || total.offset % 4 != 0) {
        snprintf(c->why, sizeof c->why, "no CollectedHeap::_total_collections in VMStructs");
        return;
    }
    const unsigned char *heap;
    memcpy(&heap, heap_field.address, sizeof heap);
    if (heap == NULL) {
        snprintf(c->why, sizeof c->why, "no CollectedHeap yet");
        return;
    }
    const unsigned char *p = heap + total.offset;
    if (!hs_gc_counters_plausible(load_u32(p), load_u32(p + 4))) {
        snprintf(c->why, sizeof c->why,
                 "the word after _total_collections (%u) is no full-collection count (%u)",
                 load_u32(p), load_u32(p + 4));
        return;
    }
    c->total = p;
}

bool hs_gc_counters_read(const hs_gc_counters *c, uint32_t *total, uint32_t *full) {
    if (!c->total) return false;
    *total = load_u32(c->total);
    *full = load_u32(c->total + 4);
    return true;
}
