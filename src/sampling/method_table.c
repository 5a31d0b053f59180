/* method_table.c: jmethodIDs -> method infos in reclaimable weak slots (see method_table.h).
 *
 * Slot key: the jmethodID; value: its info; ref: its declaring class. HotSpot never hands
 * out a jmethodID of an unloaded class again (JDK 11-24 keep a dead class loader's blocks of
 * method ids, cleared, for ever; JDK 25 numbers ids with a 64-bit counter), so a slot found
 * by key is always the running method's, even if its class's slot is awaiting reclaim. */
#include "sampling/method_table.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/tls_model.h"
#include "sampling/weak_slots.h"

struct hs_method_table {
    hs_weak_slots *slots;
    atomic_uint_fast64_t full;     /* frames given &hs_method_table_full */
    atomic_uint_fast64_t failures; /* resolutions that failed */
};

hs_method_table *hs_method_table_create(uint32_t capacity) {
    hs_method_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->slots = hs_weak_slots_create(capacity);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    return t;
}

static hs_weak_ref_ops ref_ops(const hs_method_ops *ops) {
    return (hs_weak_ref_ops){.cleared = ops->cleared, .delete_ref = ops->delete_ref};
}

void hs_method_table_destroy(hs_method_table *t, const hs_method_ops *ops, void *ctx) {
    if (!t) return;
    hs_weak_ref_ops refs = ops ? ref_ops(ops) : (hs_weak_ref_ops){0};
    hs_weak_slots_destroy(t->slots, ops ? &refs : NULL, ctx);
    free(t);
}

/* Frames given &hs_method_table_full by one translation: added to the shared counter once
 * per sample, not once per frame (a full table would otherwise make every frame of every
 * sample an atomic add on one cache line shared by all threads). */
static void count_full(hs_method_table *t, uint64_t frames) {
    if (frames && atomic_fetch_add_explicit(&t->full, frames, memory_order_relaxed) == 0)
        hs_warn("method table full: frames of methods it has no room for show as %s; memory= "
                "raises the limit", HS_METHOD_TABLE_FULL_NAME);
}

/* A window crowded, maybe with the methods of unloaded classes: one frame in this many that
 * find no room pays for checking a few slots (every one would make a full table cost a scan
 * per frame). Counted per thread: each thread that keeps meeting a full table reclaims now
 * and then, whatever its stacks' depths, and no line shared by all threads is written. (The
 * shared count of full frames, read modulo 16, could stay off the multiple for ever: it
 * grows once per sample, by that sample's full frames; at 8, stacks of 16 full frames never
 * reclaimed, and a table full of the dead stayed full.) */
#define FULL_FRAMES_PER_RECLAIM 16
static _Thread_local uint32_t full_seen HS_TLS_FAST;

/* Resolves a method another thread is registering at this moment, for this frame only:
 * its info is interned by content, so it is the one the winner registers. */
static const hs_method_info *resolve_unregistered(hs_method_table *t, const hs_method_ops *ops,
                                                  void *ctx, uintptr_t method) {
    const hs_method_info *info = NULL;
    jweak holder = NULL;
    if (ops->resolve(ctx, method, &info, &holder) != 0) {
        atomic_fetch_add_explicit(&t->failures, 1, memory_order_relaxed);
        return &hs_method_unresolved;
    }
    ops->delete_ref(ctx, holder);
    return info;
}

/* A method not found in its window: registered in a slot of its own, resolved by ops. */
static const hs_method_info *register_method(hs_method_table *t, const hs_method_ops *ops,
                                             void *ctx, uintptr_t method) {
    uintptr_t found = 0;
    hs_weak_slot *slot = NULL;
    hs_weak_ref_ops refs = ref_ops(ops);
    switch (hs_weak_slots_lookup(t->slots, method, NULL, NULL, &found, &slot)) {
    case HS_WEAK_FOUND: /* a racer registered it meanwhile */
        return (const hs_method_info *)found;
    case HS_WEAK_PENDING: /* a racer is registering it: one entry per method */
        return resolve_unregistered(t, ops, ctx, method);
    case HS_WEAK_CLAIMED: {
        const hs_method_info *info = NULL;
        jweak holder = NULL;
        if (ops->resolve(ctx, method, &info, &holder) != 0) {
            hs_weak_slots_abandon(slot);
            atomic_fetch_add_explicit(&t->failures, 1, memory_order_relaxed);
            info = &hs_method_unresolved;
        } else {
            /* A pseudo-info is kept too: the method's later frames need no new attempt, and
             * its slot goes with its class like any other. */
            hs_weak_slots_publish(t->slots, slot, method, holder, (uintptr_t)info);
        }
        hs_weak_slots_reclaim_some(t->slots, &refs, ctx); /* a new method pays for a few old */
        return info;
    }
    case HS_WEAK_FULL:
    default:
        if (++full_seen % FULL_FRAMES_PER_RECLAIM == 0)
            hs_weak_slots_reclaim_some(t->slots, &refs, ctx);
        return &hs_method_table_full;
    }
}

void hs_method_table_translate(hs_method_table *t, const hs_method_ops *ops, void *ctx,
                               hs_frame *frames, uint32_t count) {
    uint64_t full = 0;
    hs_weak_reader reader = hs_weak_slots_enter(t->slots);
    for (uint32_t i = 0; i < count; i++) {
        uintptr_t info = 0;
        if (!hs_weak_slots_find(t->slots, frames[i].method, NULL, NULL, &info, NULL)) {
            hs_weak_slots_leave(reader); /* first sight: JVMTI calls, maybe a reclaim */
            info = (uintptr_t)register_method(t, ops, ctx, frames[i].method);
            reader = hs_weak_slots_enter(t->slots);
        }
        full += info == (uintptr_t)&hs_method_table_full;
        frames[i].method = info;
    }
    hs_weak_slots_leave(reader);
    count_full(t, full);
}

uint32_t hs_method_table_resident(const hs_method_table *t) { return hs_weak_slots_resident(t->slots); }
uint64_t hs_method_table_reclaimed(const hs_method_table *t) { return hs_weak_slots_reclaimed(t->slots); }
uint64_t hs_method_table_full_frames(const hs_method_table *t) { return atomic_load(&t->full); }
uint64_t hs_method_table_failures(const hs_method_table *t) { return atomic_load(&t->failures); }
