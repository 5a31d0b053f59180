/* live_table.c: the lock-free table of tracked sampled objects, with unbiased thinning
 * (see live_table.h for the contract).
 *
 * A slot is free when its ref is NULL. An inserter claims a free slot by swapping NULL
 * for the BUSY marker, fills the other fields, then publishes the real ref with release
 * ordering: whoever reads a published ref with acquire ordering sees complete fields.
 * Only the sweeper thread reads published slots, changes their level, and frees them
 * (storing NULL with release ordering, so that its reads of a slot happen before the
 * next inserter's writes to it).
 *
 * A bitmap, one bit per slot, says which slots may be in use, so that the sweeper's walks
 * (two per GC: the sweep and the growth record; a young GC may come 20 times a second)
 * visit the entries rather than every slot: 65,536 slots are 2 MB to read, their bitmap
 * 8 KB. An inserter sets its slot's bit after claiming the slot and before publishing it;
 * the sweeper clears the bit before freeing the slot. The claim's CAS reads the free
 * slot with acquire ordering, so a clear always comes before the next claimant's set: a
 * bit is never lost while its slot is in use. A walk that reads a bit still clear misses
 * only an entry whose insert is under way, as if it had come just after the walk. */
#include "live/live_table.h"

#include <stdlib.h>

/* Marks a slot claimed by an inserter that has not published it yet. Its address can
 * never be a JNI reference handed to insert. */
static char busy_marker;
#define BUSY ((void *)&busy_marker)

typedef struct {
    _Atomic(void *) ref; /* NULL free, BUSY being filled, else published */
    uint64_t weight_fp;  /* the sample's own weight, before the 2^level factor */
    uint32_t bucket;
    uint32_t epoch;
    uint8_t level;
    uint16_t tag;     /* these two fill the padding after level */
    uint32_t seconds;
} hs_live_slot;

/* Two slots per cache line: the allocation time must not grow the table. */
_Static_assert(sizeof(hs_live_slot) == 32, "a live table slot is 32 bytes");

/* Counters written by every inserter sit apart from the level every inserter reads,
 * and from the sweeper's counters, so they do not bounce each other's cache lines. */
struct hs_live_table {
    hs_live_slot *slots;
    _Atomic uint64_t *in_use; /* one bit per slot: claimed, maybe published */
    uint32_t capacity;
    uint32_t high_water; /* raise the level at this occupancy (7/8) */
    uint32_t low_water;  /* lower it after a sweep that ends under this (1/4) */
    uint64_t rng;        /* sweeper's thinning draws */

    _Alignas(64) _Atomic uint32_t level; /* L: admission probability 2^-L */
    /* The level the last sweep thinned to. level > applied_level means raises wait for
     * a sweep; until then only raise_if_crowded may add more. */
    _Atomic uint32_t applied_level;

    _Alignas(64) _Atomic uint32_t occupancy;
    _Atomic uint64_t inserted;

    _Alignas(64) _Atomic uint64_t rejected;
    _Atomic uint64_t failed;

    _Alignas(64) _Atomic uint64_t removed;
    _Atomic uint64_t thinned;
};

static void count_add(_Atomic uint64_t *counter) {
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
}

static uint32_t words_for(uint32_t capacity) { return capacity / 64 + (capacity % 64 != 0); }

static uint64_t bit_of(uint32_t index) { return UINT64_C(1) << (index % 64); }

hs_live_table *hs_live_table_create(uint32_t capacity, uint64_t seed) {
    if (capacity == 0) return NULL;
    hs_live_table *t = aligned_alloc(64, sizeof *t);
    if (!t) return NULL;
    t->slots = calloc(capacity, sizeof *t->slots);
    t->in_use = calloc(words_for(capacity), sizeof *t->in_use);
    if (!t->slots || !t->in_use) {
        free(t->slots);
        free(t->in_use);
        free(t);
        return NULL;
    }
    t->capacity = capacity;
    t->high_water = capacity - capacity / 8;
    t->low_water = capacity / 4;
    t->rng = seed;
    for (uint32_t i = 0; i < capacity; i++) atomic_init(&t->slots[i].ref, NULL);
    for (uint32_t i = 0; i < words_for(capacity); i++) atomic_init(&t->in_use[i], 0);
    atomic_init(&t->level, 0);
    atomic_init(&t->applied_level, 0);
    atomic_init(&t->occupancy, 0);
    atomic_init(&t->inserted, 0);
    atomic_init(&t->rejected, 0);
    atomic_init(&t->failed, 0);
    atomic_init(&t->removed, 0);
    atomic_init(&t->thinned, 0);
    return t;
}

void hs_live_table_destroy(hs_live_table *table) {
    if (!table) return;
    free(table->slots);
    free(table->in_use);
    free(table);
}

bool hs_live_table_request_raise(hs_live_table *table) {
    uint32_t level = atomic_load_explicit(&table->level, memory_order_relaxed);
    uint32_t applied = atomic_load_explicit(&table->applied_level, memory_order_relaxed);
    if (level != applied || level >= HS_LIVE_MAX_LEVEL) return false;
    return atomic_compare_exchange_strong_explicit(&table->level, &level, level + 1,
                                                   memory_order_relaxed, memory_order_relaxed);
}

/* Inserters' raise. The first raise comes at 7/8 occupancy; until a sweep applies it,
 * each further one needs half the remaining free space gone (free <= capacity/16 for
 * the second, capacity/32 for the third, capacity/64 for the last). Every raise halves
 * the admission rate, so when no sweep comes for a while each stage takes about as long
 * to fill as the previous one: the table fills up (inserts fail, which biases the
 * estimates) 2.5 times later than with one raise. The cap keeps the sweep that finally
 * comes from thinning by more than HS_LIVE_MAX_PENDING levels at once (keeping 1/16). */
static void raise_if_crowded(hs_live_table *table, uint32_t occupancy) {
    uint32_t level = atomic_load_explicit(&table->level, memory_order_relaxed);
    uint32_t applied = atomic_load_explicit(&table->applied_level, memory_order_relaxed);
    if (level < applied || level >= HS_LIVE_MAX_LEVEL) return; /* being lowered, or top */
    uint32_t pending = level - applied;
    uint32_t free_slots = occupancy < table->capacity ? table->capacity - occupancy : 0;
    if (pending >= HS_LIVE_MAX_PENDING ||
        free_slots > ((table->capacity - table->high_water) >> pending))
        return;
    atomic_compare_exchange_strong_explicit(&table->level, &level, level + 1,
                                            memory_order_relaxed, memory_order_relaxed);
}

bool hs_live_table_admit(hs_live_table *table, uint64_t random, uint8_t *level) {
    uint32_t l = atomic_load_explicit(&table->level, memory_order_relaxed);
    *level = (uint8_t)l;
    /* The top l bits are all zero with probability 2^-l. */
    if (l == 0 || (random >> (64 - l)) == 0) return true;
    count_add(&table->rejected);
    return false;
}

/* The slots an insert probes: [0, window). While the table is mostly empty, which is
 * its usual state (most samples die at their first GC), new entries go to the first
 * slots only, at most a quarter of them taken: the sweeper, which visits every entry after
 * every GC (20 times a second on some programs), then reads a few dozen KB instead of
 * entries scattered over the whole table, one cache and TLB miss each (measured: 95 % of
 * the sweep's own time on AllocMix, about 0.5 us an entry on a 2-core VM). Entries left
 * beyond a window that shrank after a spike are not in it: at most a quarter of a window's
 * slots are ever taken (occupancy <= window / 4), so a probe finds a free slot with
 * probability 3/4 or more, as in the whole table at 1/4 full. From a quarter full on, the
 * window is the whole table (the high-water rule of live_table.h is unchanged). */
static uint32_t probe_window(const hs_live_table *table, uint32_t occupancy) {
    uint64_t window = HS_LIVE_WINDOW_MIN;
    while (window < (uint64_t)occupancy * 4 && window < table->capacity) window *= 2;
    return window < table->capacity ? (uint32_t)window : table->capacity;
}

/* Maps 32 random bits uniformly onto [0, window) without a division. */
static uint32_t slot_index(uint32_t window, uint64_t random) {
    return (uint32_t)(((random & 0xffffffffu) * window) >> 32);
}

int64_t hs_live_table_insert(hs_live_table *table, uint64_t random, void *ref, uint32_t bucket,
                             uint16_t tag, hs_live_birth birth, uint64_t weight_fp,
                             uint8_t level) {
    if (ref == NULL || ref == BUSY || level > HS_LIVE_MAX_LEVEL) {
        count_add(&table->failed);
        return -1;
    }
    /* Random probing rather than linear: no clusters form, so at occupancy f each probe
     * finds a free slot with probability about 1 - f. */
    uint64_t x = random;
    uint32_t window =
        probe_window(table, atomic_load_explicit(&table->occupancy, memory_order_relaxed));
    for (int probe = 0; probe < HS_LIVE_PROBES; probe++) {
        uint32_t index = slot_index(window, x);
        hs_live_slot *slot = &table->slots[index];
        void *expected = NULL;
        if (atomic_load_explicit(&slot->ref, memory_order_relaxed) == NULL &&
            atomic_compare_exchange_strong_explicit(&slot->ref, &expected, BUSY,
                                                    memory_order_acquire,
                                                    memory_order_relaxed)) {
            slot->weight_fp = weight_fp;
            slot->bucket = bucket;
            slot->tag = tag;
            slot->epoch = birth.epoch;
            slot->seconds = birth.seconds;
            slot->level = level;
            atomic_fetch_or_explicit(&table->in_use[index / 64], bit_of(index),
                                     memory_order_relaxed);
            uint32_t occupancy =
                atomic_fetch_add_explicit(&table->occupancy, 1, memory_order_relaxed) + 1;
            count_add(&table->inserted);
            atomic_store_explicit(&slot->ref, ref, memory_order_release);
            if (occupancy >= table->high_water) raise_if_crowded(table, occupancy);
            return index;
        }
        x = hs_random_mix64(x + HS_RANDOM_GOLDEN);
    }
    count_add(&table->failed);
    raise_if_crowded(table, atomic_load_explicit(&table->occupancy, memory_order_relaxed));
    return -1;
}

static uint64_t scaled_weight(uint64_t weight_fp, uint8_t level) {
    if (level >= 64 || weight_fp > (UINT64_MAX >> level)) return UINT64_MAX;
    return weight_fp << level;
}

/* Reads a published slot (sweeper thread, after an acquire load of ref). */
static void read_entry(const hs_live_slot *slot, void *ref, hs_live_entry *entry) {
    entry->ref = ref;
    entry->bucket = slot->bucket;
    entry->tag = slot->tag;
    entry->epoch = slot->epoch;
    entry->seconds = slot->seconds;
    entry->level = slot->level;
    entry->weight_fp = scaled_weight(slot->weight_fp, slot->level);
}

/* The published ref of a slot, or NULL if it is free or being filled. */
static void *published_ref(const hs_live_slot *slot) {
    void *ref = atomic_load_explicit(&slot->ref, memory_order_acquire);
    return ref == BUSY ? NULL : ref;
}

static void free_slot(hs_live_table *table, uint32_t index) {
    atomic_fetch_and_explicit(&table->in_use[index / 64], ~bit_of(index), memory_order_relaxed);
    atomic_store_explicit(&table->slots[index].ref, NULL, memory_order_release);
    atomic_fetch_sub_explicit(&table->occupancy, 1, memory_order_relaxed);
}

/* Calls fn(index, ctx) for every slot whose in-use bit is set, in index order. fn may
 * free the slot it is given; the walk's context carries the table, const or not as the
 * walk needs it. */
typedef void (*slot_fn)(uint32_t index, void *ctx);

static void each_slot_in_use(const hs_live_table *table, slot_fn fn, void *ctx) {
    for (uint32_t w = 0; w < words_for(table->capacity); w++) {
        uint64_t bits = atomic_load_explicit(&table->in_use[w], memory_order_acquire);
        for (; bits; bits &= bits - 1) fn(w * 64 + (uint32_t)__builtin_ctzll(bits), ctx);
    }
}

/* True with probability 2^-halvings (1 <= halvings <= HS_LIVE_MAX_LEVEL). */
static bool keep_draw(hs_live_table *table, uint32_t halvings) {
    return (hs_random_next(&table->rng) >> (64 - halvings)) == 0;
}

typedef struct {
    hs_live_table *table;
    hs_live_visit_fn visit;
    hs_live_drop_fn dropped;
    void *ctx;
    uint32_t target;
} sweep_walk;

/* One slot of a sweep pass (sweep_pass). */
static void sweep_slot(uint32_t index, void *arg) {
    const sweep_walk *w = arg;
    hs_live_table *table = w->table;
    hs_live_slot *slot = &table->slots[index];
    void *ref = published_ref(slot);
    if (!ref) return;
    hs_live_entry entry;
    read_entry(slot, ref, &entry);
    if (w->visit && w->visit(&entry, w->ctx) == HS_LIVE_REMOVE) {
        free_slot(table, index);
        count_add(&table->removed);
        return;
    }
    if (entry.level >= w->target) return;
    if (keep_draw(table, w->target - entry.level)) {
        slot->level = (uint8_t)w->target;
    } else {
        if (w->dropped) w->dropped(&entry, w->ctx);
        free_slot(table, index);
        count_add(&table->thinned);
    }
}

/* One pass over the slots: removes what `visit` says is dead, then thins the survivors
 * of level < target: each is kept with probability 2^(level - target), its level (and
 * so its weight) raised to target, or dropped. */
static void sweep_pass(hs_live_table *table, hs_live_visit_fn visit, hs_live_drop_fn dropped,
                       void *ctx, uint32_t target) {
    sweep_walk w = {table, visit, dropped, ctx, target};
    each_slot_in_use(table, sweep_slot, &w);
}

void hs_live_table_sweep(hs_live_table *table, hs_live_visit_fn visit, hs_live_drop_fn dropped,
                         void *ctx) {
    uint32_t target = atomic_load_explicit(&table->level, memory_order_relaxed);
    sweep_pass(table, visit, dropped, ctx, target);
    atomic_store_explicit(&table->applied_level, target, memory_order_relaxed);

    /* Judge the occupancy after dead entries are gone. A raise (ours, or an inserter's
     * during the pass) is applied at once by a thinning-only pass: waiting for the next
     * sweep would leave the table near full until the next GC. */
    uint32_t occupancy = atomic_load_explicit(&table->occupancy, memory_order_relaxed);
    if (occupancy >= table->high_water) hs_live_table_request_raise(table);
    uint32_t now = atomic_load_explicit(&table->level, memory_order_relaxed);
    if (now != target) {
        sweep_pass(table, NULL, dropped, ctx, now);
        atomic_store_explicit(&table->applied_level, now, memory_order_relaxed);
    } else if (occupancy < table->low_water && target > 0 &&
               atomic_compare_exchange_strong_explicit(&table->level, &now, target - 1,
                                                       memory_order_relaxed,
                                                       memory_order_relaxed)) {
        /* Few entries left: admit twice as many from now on. Entries keep their level. */
        atomic_store_explicit(&table->applied_level, target - 1, memory_order_relaxed);
    }
}

typedef struct {
    const hs_live_table *table;
    hs_live_read_fn fn;
    void *ctx;
} read_walk;

static void read_slot(uint32_t index, void *arg) {
    const read_walk *w = arg;
    const hs_live_slot *slot = &w->table->slots[index];
    void *ref = published_ref(slot);
    if (!ref) return;
    hs_live_entry entry;
    read_entry(slot, ref, &entry);
    w->fn(&entry, w->ctx);
}

void hs_live_table_each(const hs_live_table *table, hs_live_read_fn fn, void *ctx) {
    read_walk w = {table, fn, ctx};
    each_slot_in_use(table, read_slot, &w);
}

typedef struct {
    hs_live_table *table;
    hs_live_drop_fn release; /* NULL: nothing to release */
    void *ctx;
} clear_walk;

static void clear_slot(uint32_t index, void *arg) {
    const clear_walk *w = arg;
    hs_live_table *table = w->table;
    const hs_live_slot *slot = &table->slots[index];
    void *ref = published_ref(slot);
    if (!ref) return;
    if (w->release) {
        hs_live_entry entry;
        read_entry(slot, ref, &entry);
        w->release(&entry, w->ctx);
    }
    free_slot(table, index);
    count_add(&table->removed);
}

void hs_live_table_clear(hs_live_table *table, hs_live_drop_fn release, void *ctx) {
    clear_walk w = {table, release, ctx};
    each_slot_in_use(table, clear_slot, &w);
}

bool hs_live_table_thin_pending(const hs_live_table *table) {
    return atomic_load_explicit(&table->level, memory_order_relaxed) >
           atomic_load_explicit(&table->applied_level, memory_order_relaxed);
}

uint32_t hs_live_table_poll_ms(const hs_live_table *table, double inserts_per_second) {
    if (hs_live_table_thin_pending(table)) return HS_LIVE_POLL_MIN_MS;
    uint32_t occupancy = atomic_load_explicit(&table->occupancy, memory_order_relaxed);
    if (occupancy >= table->high_water) return HS_LIVE_POLL_MIN_MS;
    double rate = inserts_per_second > HS_LIVE_POLL_BUSY_RATE ? inserts_per_second
                                                               : HS_LIVE_POLL_BUSY_RATE;
    double ms = 1000.0 * (table->high_water - occupancy) / rate / 4;
    if (ms < HS_LIVE_POLL_MIN_MS) return HS_LIVE_POLL_MIN_MS;
    return ms > HS_LIVE_POLL_MAX_MS ? HS_LIVE_POLL_MAX_MS : (uint32_t)ms;
}

void hs_live_table_stats(const hs_live_table *table, hs_live_stats *out) {
    const hs_live_table *t = table;
    out->capacity = t->capacity;
    out->occupancy = atomic_load_explicit(&t->occupancy, memory_order_relaxed);
    out->level = atomic_load_explicit(&t->level, memory_order_relaxed);
    out->inserted = atomic_load_explicit(&t->inserted, memory_order_relaxed);
    out->removed = atomic_load_explicit(&t->removed, memory_order_relaxed);
    out->thinned = atomic_load_explicit(&t->thinned, memory_order_relaxed);
    out->failed = atomic_load_explicit(&t->failed, memory_order_relaxed);
    out->rejected = atomic_load_explicit(&t->rejected, memory_order_relaxed);
}
