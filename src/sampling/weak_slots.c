/* weak_slots.c: bounded-window slots of weak refs, reclaimed behind a grace period (see
 * weak_slots.h).
 *
 * Slot states: EMPTY (never used: ends a probe window), FILLING (being registered), READY
 * (holds key, ref, value), DEAD (its class was unloaded: skipped, its ref about to be
 * deleted), FREE (reusable; probed past). A reader reads a slot's fields only after seeing
 * READY, inside a reader bracket: it adds 1 to its stripe's counter of the current epoch
 * parity (and checks the epoch did not move meanwhile), and subtracts it when done. The
 * reclaimer marks slots DEAD, flips the epoch, and deletes their refs only once the old
 * parity's counters are all zero: every reader that could have seen READY has left, and
 * every later reader sees DEAD (all four steps are seq_cst, so a reader whose increment the
 * reclaimer missed comes after the DEAD store). If readers of the old parity are still
 * inside, the slots stay DEAD and the next reclaim finishes them: the reclaimer runs on an
 * application thread, inside its allocation, where it must never wait (a yield there gave
 * the core away for a time slice whenever another thread was runnable). */
#include "sampling/weak_slots.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/log.h"
#include "base/tls_model.h"

enum { SLOT_EMPTY = 0, SLOT_FILLING, SLOT_READY, SLOT_DEAD, SLOT_FREE };

/* Windows tried when racing threads keep taking the free slot found. */
#define CLAIM_ATTEMPTS 4
/* Slots the reclaimer looks at per call: a new entry pays for checking this many. */
#define RECLAIM_CHUNK 64
#define READER_STRIPES 16
#define MAX_ENTRIES (1u << 28)

typedef struct {
    _Alignas(64) _Atomic long count[2]; /* readers inside, per epoch parity */
} reader_stripe;

struct hs_weak_slots {
    uint32_t mask; /* slots - 1 */
    hs_weak_slot *slots;
    atomic_uint resident; /* READY + DEAD slots */
    atomic_uint_fast64_t reclaimed;
    atomic_uint_fast64_t ref_failures; /* new_ref failed: value computed, not registered */
    reader_stripe readers[READER_STRIPES];
    atomic_uint epoch;
    atomic_bool reclaiming; /* the reclaimer's lock (try-only: nobody waits on it) */
    /* Owned by whoever holds `reclaiming`: */
    uint32_t cursor;                 /* next slot to check */
    uint32_t pending[RECLAIM_CHUNK]; /* DEAD slots whose refs await the grace period */
    uint32_t npending;
    unsigned pending_parity; /* the parity whose readers must drain first */
};

hs_weak_slots *hs_weak_slots_create(uint32_t entries) {
    if (entries == 0 || entries > MAX_ENTRIES) return NULL;
    hs_weak_slots *t = aligned_alloc(64, (sizeof *t + 63) / 64 * 64);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    uint32_t n = 2;
    while (n < 2 * (uint64_t)entries) n <<= 1;
    t->mask = n - 1;
    t->slots = calloc(n, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    return t;
}

void hs_weak_slots_destroy(hs_weak_slots *t, const hs_weak_ref_ops *ops, void *ctx) {
    if (!t) return;
    for (uint32_t i = 0; ops && i <= t->mask; i++) {
        int state = atomic_load(&t->slots[i].state);
        if (state == SLOT_READY || state == SLOT_DEAD) ops->delete_ref(ctx, t->slots[i].ref);
    }
    free(t->slots);
    free(t);
}

/* ---- reader brackets ------------------------------------------------------------------ */

/* A thread's stripe, picked once per thread. Any stripe is correct (a bracket subtracts
 * from the counter it added to); the spread only keeps threads off each other's lines. */
static reader_stripe *my_stripe(hs_weak_slots *t) {
    static atomic_uint next;
    static _Thread_local int stripe HS_TLS_FAST = -1;
    if (stripe < 0) stripe = (int)(atomic_fetch_add(&next, 1) % READER_STRIPES);
    return &t->readers[stripe];
}

static void (*_Atomic reader_pause)(void);

void hs_weak_slots_set_reader_pause(void (*pause)(void)) { atomic_store(&reader_pause, pause); }

/* Counts this reader in under the current epoch's parity. The epoch is read again after
 * the increment: a reader held up between the two could otherwise count itself in under a
 * parity two flips old, which the reclaimer of the second flip does not wait for. With the
 * epoch unchanged, the increment came before the next flip, and that flip's reclaimer sees
 * it. */
hs_weak_reader hs_weak_slots_enter(hs_weak_slots *t) {
    reader_stripe *r = my_stripe(t);
    for (;;) {
        unsigned epoch = atomic_load(&t->epoch);
        _Atomic long *counter = &r->count[epoch & 1];
        void (*pause)(void) = atomic_load_explicit(&reader_pause, memory_order_relaxed);
        if (pause) pause();
        atomic_fetch_add(counter, 1);
        if (atomic_load(&t->epoch) == epoch) return (hs_weak_reader){counter};
        atomic_fetch_sub(counter, 1);
    }
}

void hs_weak_slots_leave(hs_weak_reader reader) { atomic_fetch_sub(reader.counter, 1); }

/* Whether every reader of `parity` has left, now: never waits (see the file comment). */
static bool drained(hs_weak_slots *t, unsigned parity) {
    for (int i = 0; i < READER_STRIPES; i++)
        if (atomic_load(&t->readers[i].count[parity]) != 0) return false;
    return true;
}

/* ---- lookups ---------------------------------------------------------------------------- */

bool hs_weak_slots_find(hs_weak_slots *t, uint64_t key, hs_weak_match match, void *ctx,
                        uintptr_t *value, hs_weak_slot **open) {
    uint32_t start = (uint32_t)hs_mix64(key) & t->mask;
    if (open) *open = NULL;
    for (uint32_t probe = 0; probe < HS_WEAK_WINDOW && probe <= t->mask; probe++) {
        hs_weak_slot *slot = &t->slots[(start + probe) & t->mask];
        int state = atomic_load(&slot->state); /* seq_cst: see the file comment */
        if (state == SLOT_READY) {
            if (atomic_load_explicit(&slot->key, memory_order_relaxed) == key &&
                (!match || match(ctx, slot))) {
                *value = slot->value;
                return true;
            }
        } else if ((state == SLOT_EMPTY || state == SLOT_FREE) && open && !*open) {
            *open = slot;
        }
        if (state == SLOT_EMPTY) break;
    }
    return false;
}

/* Another slot than `own` of key's window holding key, claimed (FILLING) or registered
 * (READY); NULL if none. A claimed slot lies before the window's first EMPTY slot: slots
 * never become EMPTY again. */
static hs_weak_slot *other_holder(hs_weak_slots *t, uint64_t key, const hs_weak_slot *own) {
    uint32_t start = (uint32_t)hs_mix64(key) & t->mask;
    for (uint32_t probe = 0; probe < HS_WEAK_WINDOW && probe <= t->mask; probe++) {
        hs_weak_slot *slot = &t->slots[(start + probe) & t->mask];
        int state = atomic_load(&slot->state);
        if (state == SLOT_EMPTY) break;
        if (slot != own && (state == SLOT_FILLING || state == SLOT_READY) &&
            atomic_load(&slot->key) == key)
            return slot;
    }
    return NULL;
}

/* Single winner for keys that alone decide: the claimer stores its key, then looks for
 * another claim of the key. Of two claimers, the one whose key store came second (all
 * seq_cst) sees the first's and steps back; both may step back, neither registers, and
 * the next sight of the key tries again: never two entries. A slot whose claim left an
 * old key readable for a moment can only make a claimer step back needlessly. */
static hs_weak_lookup_result settle_claim(hs_weak_slots *t, uint64_t key, hs_weak_slot *mine,
                                          uintptr_t *value) {
    hs_weak_reader reader = hs_weak_slots_enter(t);
    hs_weak_slot *other = other_holder(t, key, mine);
    bool ready = other && atomic_load(&other->state) == SLOT_READY;
    if (ready) *value = other->value;
    hs_weak_slots_leave(reader);
    if (!other) return HS_WEAK_CLAIMED;
    hs_weak_slots_abandon(mine);
    return ready ? HS_WEAK_FOUND : HS_WEAK_PENDING;
}

hs_weak_lookup_result hs_weak_slots_lookup(hs_weak_slots *t, uint64_t key, hs_weak_match match,
                                           void *ctx, uintptr_t *value, hs_weak_slot **claimed) {
    for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        hs_weak_slot *open;
        hs_weak_reader reader = hs_weak_slots_enter(t);
        bool found = hs_weak_slots_find(t, key, match, ctx, value, &open);
        hs_weak_slots_leave(reader);
        if (found) return HS_WEAK_FOUND;
        if (!open) break;
        int expected = atomic_load(&open->state);
        if ((expected == SLOT_EMPTY || expected == SLOT_FREE) &&
            atomic_compare_exchange_strong(&open->state, &expected, SLOT_FILLING)) {
            atomic_store(&open->key, key);
            *claimed = open;
            return match ? HS_WEAK_CLAIMED : settle_claim(t, key, open, value);
        }
    }
    /* No room for us, but maybe a racer's claim of the same key took the last of it. */
    return !match && other_holder(t, key, NULL) ? HS_WEAK_PENDING : HS_WEAK_FULL;
}

void hs_weak_slots_publish(hs_weak_slots *t, hs_weak_slot *slot, uint64_t key, jweak ref,
                           uintptr_t value) {
    atomic_store_explicit(&slot->key, key, memory_order_relaxed);
    slot->ref = ref;
    slot->value = value;
    atomic_fetch_add(&t->resident, 1);
    atomic_store(&slot->state, SLOT_READY);
}

void hs_weak_slots_abandon(hs_weak_slot *slot) {
    atomic_store(&slot->key, 0); /* no claimer takes a stale key for a racer's */
    atomic_store(&slot->state, SLOT_FREE);
}

/* ---- objects by identity ---------------------------------------------------------------- */

typedef struct {
    const hs_identity_ops *ops;
    void *ctx;
    jobject obj;
} identity_probe;

/* A slot of the same identity hash holds obj when its ref designates it (read inside the
 * reader bracket, so the ref is not deleted meanwhile). */
static bool same_object(void *probe, const hs_weak_slot *slot) {
    const identity_probe *p = probe;
    return p->ops->same(p->ctx, slot->ref, p->obj);
}

/* The JVM made no weak ref (out of memory): the object's value stands for this lookup,
 * the next one computes it again. Counted; said once per process. */
static void count_ref_failure(hs_weak_slots *t) {
    static atomic_bool said;
    atomic_fetch_add_explicit(&t->ref_failures, 1, memory_order_relaxed);
    if (!atomic_exchange(&said, true))
        hs_warn("the JVM made no weak reference (NewWeakGlobalRef failed); the class of such "
                "a sample is resolved again at its next sample (slower, still right)");
}

int hs_weak_slots_identity(hs_weak_slots *t, const hs_identity_ops *ops, void *ctx, jobject obj,
                           hs_identity_value_fn value_of, void *value_ctx, uintptr_t *value,
                           int *error) {
    jint hash = 0;
    int err = ops->hash(ctx, obj, &hash);
    if (err != 0) {
        *error = err;
        return -1;
    }
    identity_probe probe = {.ops = ops, .ctx = ctx, .obj = obj};
    hs_weak_slot *slot = NULL;
    hs_weak_ref_ops refs = {.cleared = ops->cleared, .delete_ref = ops->delete_ref};
    hs_weak_lookup_result found =
        hs_weak_slots_lookup(t, (uint32_t)hash, same_object, &probe, value, &slot);
    if (found == HS_WEAK_CLAIMED) {
        *value = value_of(value_ctx, obj, error);
        jweak ref = *value ? ops->new_ref(ctx, obj) : NULL;
        if (ref) hs_weak_slots_publish(t, slot, (uint32_t)hash, ref, *value);
        else hs_weak_slots_abandon(slot);
        if (*value && !ref) count_ref_failure(t);
    }
    /* A new object pays for checking a few old ones; a crowded window may be crowded with
     * collected ones. */
    if (found != HS_WEAK_FOUND) hs_weak_slots_reclaim_some(t, &refs, ctx);
    return (int)found;
}

/* ---- reclaiming the slots of unloaded classes ----------------------------------------- */

/* Deletes the refs of the pending DEAD slots once their readers are gone. */
static bool finish_pending(hs_weak_slots *t, const hs_weak_ref_ops *ops, void *ctx) {
    if (t->npending == 0) return true;
    if (!drained(t, t->pending_parity)) return false;
    for (uint32_t i = 0; i < t->npending; i++) {
        hs_weak_slot *slot = &t->slots[t->pending[i]];
        ops->delete_ref(ctx, slot->ref);
        slot->ref = NULL;
        atomic_store(&slot->state, SLOT_FREE);
    }
    atomic_fetch_sub(&t->resident, t->npending);
    atomic_fetch_add(&t->reclaimed, t->npending);
    t->npending = 0;
    return true;
}

void hs_weak_slots_reclaim_some(hs_weak_slots *t, const hs_weak_ref_ops *ops, void *ctx) {
    if (atomic_load_explicit(&t->reclaiming, memory_order_relaxed) ||
        atomic_exchange(&t->reclaiming, true))
        return;
    if (finish_pending(t, ops, ctx)) {
        for (uint32_t n = 0; n < RECLAIM_CHUNK; n++) {
            uint32_t index = t->cursor;
            t->cursor = (t->cursor + 1) & t->mask;
            hs_weak_slot *slot = &t->slots[index];
            /* READY is only left by us: no CAS needed. The class of a cleared ref is gone,
             * so no lookup can be looking for its entry. */
            if (atomic_load(&slot->state) == SLOT_READY && ops->cleared(ctx, slot->ref)) {
                atomic_store(&slot->state, SLOT_DEAD);
                t->pending[t->npending++] = index;
            }
        }
        if (t->npending > 0) {
            t->pending_parity = atomic_fetch_add(&t->epoch, 1) & 1;
            finish_pending(t, ops, ctx);
        }
    }
    atomic_store(&t->reclaiming, false);
}

uint64_t hs_weak_slots_reclaimed(const hs_weak_slots *t) { return atomic_load(&t->reclaimed); }
uint32_t hs_weak_slots_resident(const hs_weak_slots *t) { return atomic_load(&t->resident); }
uint64_t hs_weak_slots_ref_failures(const hs_weak_slots *t) { return atomic_load(&t->ref_failures); }
