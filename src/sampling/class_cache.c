/* class_cache.c: classes by identity -> ids -> names, recycling the slots of unloaded
 * classes (see class_cache.h).
 *
 * Slot states: EMPTY (never used: ends a probe window), FILLING (being registered), READY
 * (holds hash, ref, id), DEAD (its class was unloaded: skipped, its ref about to be
 * deleted), FREE (reusable; probed past). A reader reads a slot's ref only after seeing
 * READY, inside a reader bracket: it adds 1 to its stripe's counter of the current epoch
 * parity (and checks the epoch did not move meanwhile), and subtracts it when done. The reclaimer marks slots DEAD, flips the epoch, and
 * deletes their refs only once the old parity's counters are all zero: every reader that
 * could have seen READY has left, and every later reader sees DEAD (all four steps are
 * seq_cst, so a reader whose increment the reclaimer missed comes after the DEAD store).
 * If the readers do not drain within a short spin, the slots stay DEAD and the next
 * reclaim finishes them: nothing is deleted early, nobody waits long.
 *
 * Names are interned in their own bounded-window index (name hash -> id), so ids are per
 * name. Ids are never reused, and names never freed: buckets of the profile refer to them
 * for as long as the agent runs. */
#include "sampling/class_cache.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/log.h"

enum { SLOT_EMPTY = 0, SLOT_FILLING, SLOT_READY, SLOT_DEAD, SLOT_FREE };

/* Slots a lookup looks at, at most (the table is at most half full of live classes). */
#define PROBE_WINDOW 32
/* Windows tried when racing threads keep taking the free slot found. */
#define CLAIM_ATTEMPTS 4
/* Slots the reclaimer looks at per call: a new class pays for checking this many. */
#define RECLAIM_CHUNK 64
/* Yields the reclaimer spends waiting for lookups in flight before leaving it for later. */
#define GRACE_SPINS 200
#define READER_STRIPES 16
/* Longest name kept; longer ones (generated code) are cut, which only shortens a label. */
#define NAME_LEN 2048

typedef struct {
    atomic_int state;
    jint hash;
    jweak ref;
    uint32_t id;
} class_slot;

typedef struct {
    _Alignas(64) atomic_long count[2]; /* readers inside, per epoch parity */
} reader_stripe;

struct hs_class_cache {
    uint32_t capacity;             /* ids 1..capacity */
    uint32_t slot_mask;            /* identity slots - 1 */
    uint32_t name_mask;            /* name index slots - 1 */
    class_slot *slots;
    _Atomic uint32_t *name_index;  /* name hash -> id (0 = empty) */
    _Atomic(const char *) *names;  /* id -> name */
    hs_arena *arena;
    atomic_uint count;             /* ids handed out; racers may pass capacity */
    atomic_uint resident;          /* READY + DEAD slots */
    atomic_uint_fast64_t overflow;
    atomic_uint_fast64_t reclaimed;
    reader_stripe readers[READER_STRIPES];
    atomic_uint epoch;
    atomic_bool reclaiming;        /* the reclaimer's lock (try-only: nobody waits on it) */
    /* Owned by whoever holds `reclaiming`: */
    uint32_t cursor;               /* next slot to check */
    uint32_t pending[RECLAIM_CHUNK]; /* DEAD slots whose refs await the grace period */
    uint32_t npending;
    unsigned pending_parity;       /* the parity whose readers must drain first */
};

static uint32_t power_of_two_at_least(uint64_t n) {
    uint32_t p = 2;
    while (p < n && p < (1u << 31)) p <<= 1;
    return p;
}

hs_class_cache *hs_class_cache_create(uint32_t capacity, hs_arena *names) {
    if (capacity < 2 || capacity > (1u << 28) || !names) return NULL;
    hs_class_cache *c = aligned_alloc(64, (sizeof *c + 63) / 64 * 64);
    if (!c) return NULL;
    memset(c, 0, sizeof *c);
    uint32_t slots = power_of_two_at_least(2 * (uint64_t)capacity);
    c->capacity = capacity;
    c->slot_mask = slots - 1;
    c->name_mask = slots - 1;
    c->arena = names;
    c->slots = calloc(slots, sizeof *c->slots);
    c->name_index = calloc(slots, sizeof *c->name_index);
    c->names = calloc((size_t)capacity + 1, sizeof *c->names);
    if (!c->slots || !c->name_index || !c->names) {
        hs_class_cache_destroy(c, NULL, NULL);
        return NULL;
    }
    c->names[HS_CLASS_CACHE_FULL] = HS_CLASS_CACHE_FULL_NAME;
    atomic_store(&c->count, HS_CLASS_CACHE_FULL);
    return c;
}

void hs_class_cache_destroy(hs_class_cache *c, const hs_class_ops *ops, void *ctx) {
    if (!c) return;
    for (uint32_t i = 0; ops && c->slots && i <= c->slot_mask; i++) {
        int state = atomic_load(&c->slots[i].state);
        if (state == SLOT_READY || state == SLOT_DEAD) ops->delete_ref(ctx, c->slots[i].ref);
    }
    free(c->slots);
    free((void *)c->name_index);
    free((void *)c->names);
    free(c);
}

/* ---- reader brackets ------------------------------------------------------------------ */

static reader_stripe *my_stripe(hs_class_cache *c) {
    static atomic_uint next;
    static _Thread_local int stripe __attribute__((tls_model("initial-exec"))) = -1;
    if (stripe < 0) stripe = (int)(atomic_fetch_add(&next, 1) % READER_STRIPES);
    return &c->readers[stripe];
}

/* Counts this reader in under the current epoch's parity. The epoch is read again after
 * the increment: a reader held up between the two could otherwise count itself in under a
 * parity two flips old, which the reclaimer of the second flip does not wait for. With the
 * epoch unchanged, the increment came before the next flip, and that flip's reclaimer sees
 * it. */
static void (*_Atomic reader_pause)(void);

void hs_class_cache_set_reader_pause(void (*pause)(void)) { atomic_store(&reader_pause, pause); }

static unsigned enter(hs_class_cache *c, reader_stripe *r) {
    for (;;) {
        unsigned epoch = atomic_load(&c->epoch);
        unsigned parity = epoch & 1;
        void (*pause)(void) = atomic_load_explicit(&reader_pause, memory_order_relaxed);
        if (pause) pause();
        atomic_fetch_add(&r->count[parity], 1);
        if (atomic_load(&c->epoch) == epoch) return parity;
        atomic_fetch_sub(&r->count[parity], 1);
    }
}

static void leave(reader_stripe *r, unsigned parity) { atomic_fetch_sub(&r->count[parity], 1); }

static bool drained(hs_class_cache *c, unsigned parity) {
    for (int spin = 0; spin < GRACE_SPINS; spin++) {
        bool any = false;
        for (int i = 0; i < READER_STRIPES && !any; i++)
            any = atomic_load(&c->readers[i].count[parity]) != 0;
        if (!any) return true;
        sched_yield();
    }
    return false;
}

/* ---- reclaiming the slots of unloaded classes ----------------------------------------- */

/* Deletes the refs of the pending DEAD slots once their readers are gone. */
static bool finish_pending(hs_class_cache *c, const hs_class_ops *ops, void *ctx) {
    if (c->npending == 0) return true;
    if (!drained(c, c->pending_parity)) return false;
    for (uint32_t i = 0; i < c->npending; i++) {
        class_slot *slot = &c->slots[c->pending[i]];
        ops->delete_ref(ctx, slot->ref);
        slot->ref = NULL;
        atomic_store(&slot->state, SLOT_FREE);
    }
    atomic_fetch_sub(&c->resident, c->npending);
    atomic_fetch_add(&c->reclaimed, c->npending);
    c->npending = 0;
    return true;
}

/* Checks the next RECLAIM_CHUNK slots for unloaded classes and frees them (after the
 * grace period, now or at a later call). At most one thread at a time; others skip. */
static void reclaim_some(hs_class_cache *c, const hs_class_ops *ops, void *ctx) {
    if (atomic_load_explicit(&c->reclaiming, memory_order_relaxed) ||
        atomic_exchange(&c->reclaiming, true))
        return;
    if (finish_pending(c, ops, ctx)) {
        for (uint32_t n = 0; n < RECLAIM_CHUNK; n++) {
            uint32_t index = c->cursor;
            c->cursor = (c->cursor + 1) & c->slot_mask;
            class_slot *slot = &c->slots[index];
            /* READY is only left by us: no CAS needed. The class of a cleared ref is gone,
             * so no lookup can be looking for it. */
            if (atomic_load(&slot->state) == SLOT_READY && ops->cleared(ctx, slot->ref)) {
                atomic_store(&slot->state, SLOT_DEAD);
                c->pending[c->npending++] = index;
            }
        }
        if (c->npending > 0) {
            c->pending_parity = atomic_fetch_add(&c->epoch, 1) & 1;
            finish_pending(c, ops, ctx);
        }
    }
    atomic_store(&c->reclaiming, false);
}

/* ---- names -> ids --------------------------------------------------------------------- */

static uint64_t hash_name(const char *name) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = hs_mix64(h ^ *p);
    return h;
}

/* The id of name, interning it if new; HS_CLASS_CACHE_FULL when ids or budget are spent. */
static uint32_t id_for_name(hs_class_cache *c, const char *name) {
    uint64_t h = hash_name(name);
    _Atomic uint32_t *free_entry = NULL;
    for (uint32_t probe = 0; probe < PROBE_WINDOW; probe++) {
        _Atomic uint32_t *entry = &c->name_index[(h + probe) & c->name_mask];
        uint32_t id = atomic_load_explicit(entry, memory_order_acquire);
        if (id == 0) {
            free_entry = entry;
            break;
        }
        const char *known = atomic_load_explicit(&c->names[id], memory_order_acquire);
        if (known && strcmp(known, name) == 0) return id;
    }
    if (atomic_load_explicit(&c->count, memory_order_relaxed) >= c->capacity)
        return HS_CLASS_CACHE_FULL;
    const char *copy = hs_arena_strdup(c->arena, name);
    if (!copy) return HS_CLASS_CACHE_FULL;
    uint32_t id = atomic_fetch_add(&c->count, 1) + 1;
    if (id > c->capacity) return HS_CLASS_CACHE_FULL;
    atomic_store_explicit(&c->names[id], copy, memory_order_release);
    /* Indexed if there is room; a racer interning the same name at once may index its own
     * id instead: then two ids carry one name, which only splits a pprof function. */
    uint32_t expected = 0;
    if (free_entry) atomic_compare_exchange_strong(free_entry, &expected, id);
    return id;
}

/* ---- identity -> id ------------------------------------------------------------------- */

/* Looks for klass in its window (inside a reader bracket). Returns its id, or 0 with
 * *free_slot set to the first EMPTY or FREE slot of the window (NULL if none). */
static uint32_t find(hs_class_cache *c, const hs_class_ops *ops, void *ctx, jclass klass,
                     jint hash, class_slot **free_slot) {
    uint32_t start = (uint32_t)hs_mix64((uint32_t)hash) & c->slot_mask;
    *free_slot = NULL;
    for (uint32_t probe = 0; probe < PROBE_WINDOW && probe <= c->slot_mask; probe++) {
        class_slot *slot = &c->slots[(start + probe) & c->slot_mask];
        int state = atomic_load(&slot->state); /* seq_cst: see the file comment */
        if (state == SLOT_READY) {
            if (slot->hash == hash && ops->same(ctx, slot->ref, klass)) return slot->id;
        } else if ((state == SLOT_EMPTY || state == SLOT_FREE) && !*free_slot) {
            *free_slot = slot;
        }
        if (state == SLOT_EMPTY) break;
    }
    return 0;
}

/* Registers klass in a slot claimed (FILLING) by this thread. A class whose name finds no
 * id is kept with the pseudo-class's id, so its later samples find it at once. Any
 * failure frees the slot again. */
static uint32_t fill(hs_class_cache *c, const hs_class_ops *ops, void *ctx, class_slot *slot,
                     jclass klass, jint hash, int *error) {
    char name[NAME_LEN];
    int err = ops->name(ctx, klass, name, sizeof name);
    uint32_t id = err == 0 ? id_for_name(c, name) : 0;
    jweak ref = id ? ops->new_ref(ctx, klass) : NULL;
    if (!ref) {
        if (err) *error = err;
        atomic_store(&slot->state, SLOT_FREE);
        return id;
    }
    slot->hash = hash;
    slot->ref = ref;
    slot->id = id;
    atomic_fetch_add(&c->resident, 1);
    atomic_store(&slot->state, SLOT_READY);
    return id;
}

static uint32_t count_full(hs_class_cache *c) {
    if (atomic_fetch_add_explicit(&c->overflow, 1, memory_order_relaxed) == 0)
        hs_warn("class table full: classes it has no room for show as %s; memory= raises the "
                "limit", HS_CLASS_CACHE_FULL_NAME);
    return HS_CLASS_CACHE_FULL;
}

uint32_t hs_class_cache_id(hs_class_cache *c, const hs_class_ops *ops, void *ctx, jclass klass,
                           int *error) {
    jint hash = 0;
    int err = ops->hash(ctx, klass, &hash);
    if (err != 0) {
        *error = err;
        return 0;
    }
    reader_stripe *readers = my_stripe(c);
    for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        class_slot *slot;
        unsigned parity = enter(c, readers);
        uint32_t id = find(c, ops, ctx, klass, hash, &slot);
        leave(readers, parity);
        if (id) {
            if (id == HS_CLASS_CACHE_FULL) atomic_fetch_add_explicit(&c->overflow, 1, memory_order_relaxed);
            return id;
        }
        if (!slot) break;
        int expected = atomic_load(&slot->state);
        if ((expected == SLOT_EMPTY || expected == SLOT_FREE) &&
            atomic_compare_exchange_strong(&slot->state, &expected, SLOT_FILLING)) {
            id = fill(c, ops, ctx, slot, klass, hash, error);
            reclaim_some(c, ops, ctx); /* a new class pays for checking a few old ones */
            return id == HS_CLASS_CACHE_FULL ? count_full(c) : id;
        }
    }
    reclaim_some(c, ops, ctx); /* a crowded window may be crowded with unloaded classes */
    return count_full(c);
}

const char *hs_class_cache_name(const hs_class_cache *c, uint32_t id) {
    if (!c || id == 0 || id > c->capacity) return NULL;
    return atomic_load_explicit(&c->names[id], memory_order_acquire);
}

uint32_t hs_class_cache_count(const hs_class_cache *c) {
    uint32_t n = atomic_load(&c->count);
    return n < c->capacity ? n : c->capacity;
}

uint64_t hs_class_cache_overflow(const hs_class_cache *c) { return atomic_load(&c->overflow); }
uint64_t hs_class_cache_reclaimed(const hs_class_cache *c) { return atomic_load(&c->reclaimed); }
uint32_t hs_class_cache_resident(const hs_class_cache *c) { return atomic_load(&c->resident); }
