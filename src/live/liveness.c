/* liveness.c: the ledger of complete markings (see liveness.h). */
#include "live/liveness.h"

#include "live/live_age.h" /* hs_age_split_integer */

static uint64_t pack(uint32_t judged_before, uint32_t markings) {
    return (uint64_t)judged_before << 32 | markings;
}

void hs_liveness_init(hs_liveness *l, hs_liveness_mode mode, bool counts_ok, uint32_t total0,
                      uint32_t full0) {
    *l = (hs_liveness){.mode = counts_ok ? mode : HS_LIVENESS_UNSUPPORTED,
                       .last_total = total0,
                       .last_full = full0};
    atomic_init(&l->judged, 0);
    atomic_init(&l->last_epoch, 0);
    atomic_init(&l->last_kind, HS_MARKING_NONE);
}

static void publish(hs_liveness *l, uint32_t judged_before, uint32_t epoch, hs_marking_kind kind) {
    uint64_t old = atomic_load_explicit(&l->judged, memory_order_relaxed);
    uint32_t before = (uint32_t)(old >> 32);
    if (judged_before < before) judged_before = before; /* never un-judge */
    atomic_store_explicit(&l->last_epoch, epoch, memory_order_relaxed);
    atomic_store_explicit(&l->last_kind, kind, memory_order_relaxed);
    atomic_store_explicit(&l->judged, pack(judged_before, (uint32_t)old + 1), memory_order_release);
}

/* Nesting deeper than this is not told apart (no JDK nests more than two). */
#define MAX_DEPTH 31

void hs_liveness_on_gc_start(hs_liveness *l) {
    if (l->depth > 0 && l->depth <= MAX_DEPTH) l->enclosing |= 1u << (l->depth - 1);
    l->depth++;
    if (l->depth <= MAX_DEPTH) l->enclosing &= ~(1u << (l->depth - 1));
}

/* Whether the finishing event closed a collection inside which another one started: a VM
 * operation's wrapper (HotSpot's VM_CollectForMetadataAllocation posts a start and a
 * finish around the young pause or full GC it runs), not a pause of its own. */
static bool closes_wrapper(hs_liveness *l) {
    if (l->depth == 0) return false; /* its start was not seen */
    bool enclosed = l->depth <= MAX_DEPTH && (l->enclosing >> (l->depth - 1) & 1u);
    l->depth--;
    return enclosed;
}

hs_marking_kind hs_liveness_on_gc(hs_liveness *l, uint32_t epoch, uint32_t total, uint32_t full) {
    if (closes_wrapper(l)) { /* its inner collection was counted and judged on its own */
        l->last_total = total;
        l->last_full = full;
        return HS_MARKING_NONE;
    }
    bool total_moved = total != l->last_total, full_moved = full != l->last_full;
    bool follows_concurrent = l->previous_concurrent;
    l->last_total = total;
    l->last_full = full;
    l->previous_concurrent = false;
    if (total_moved) {
        l->counted[1] = l->counted[0];
        l->counted[0] = epoch;
    }
    /* A full collection counts in both: anything else is not the layout we expect. */
    if (full_moved && !total_moved) l->mode = HS_LIVENESS_UNSUPPORTED;
    if (l->mode == HS_LIVENESS_UNSUPPORTED) return HS_MARKING_NONE;
    if (full_moved) {
        publish(l, epoch, epoch, HS_MARKING_FULL);
        return HS_MARKING_FULL;
    }
    if (l->mode != HS_LIVENESS_G1 || total_moved) return HS_MARKING_NONE;
    l->previous_concurrent = true;
    if (follows_concurrent) return HS_MARKING_NONE; /* a second uncounted pause, same cycle */
    publish(l, l->counted[1], epoch, HS_MARKING_CONCURRENT); /* a young pause: liveness.h */
    return HS_MARKING_CONCURRENT;
}

void hs_liveness_forced(hs_liveness *l, uint32_t epoch, uint32_t finished_epoch) {
    publish(l, epoch, finished_epoch, HS_MARKING_FORCED);
}

void hs_liveness_read(const hs_liveness *l, hs_liveness_state *out) {
    uint64_t v = atomic_load_explicit(&l->judged, memory_order_acquire);
    out->judged_before = (uint32_t)(v >> 32);
    out->markings = (uint32_t)v;
    out->last_epoch = atomic_load_explicit(&l->last_epoch, memory_order_relaxed);
    out->last_kind = (hs_marking_kind)atomic_load_explicit(&l->last_kind, memory_order_relaxed);
}

bool hs_liveness_supported(const hs_liveness *l) { return l->mode != HS_LIVENESS_UNSUPPORTED; }

void hs_liveness_split(const int64_t total[4], double confirmed_weight, double unjudged_weight,
                       int64_t confirmed[4], int64_t unjudged[4]) {
    double weight[2] = {confirmed_weight, unjudged_weight};
    for (int v = 2; v < 4; v++) {
        int64_t part[2] = {0, 0};
        hs_age_split_integer(total[v] > 0 ? total[v] : 0, weight, 2, part);
        if (!(confirmed_weight > 0) && !(unjudged_weight > 0)) part[1] = total[v]; /* no split */
        confirmed[v] = part[0];
        unjudged[v] = part[1];
        int64_t alloc = total[v - 2];
        confirmed[v - 2] = part[0] < alloc ? part[0] : (alloc > 0 ? alloc : 0);
        unjudged[v - 2] = alloc - confirmed[v - 2];
    }
}

const char *hs_marking_kind_name(hs_marking_kind kind) {
    switch (kind) {
    case HS_MARKING_FULL: return "full GC";
    case HS_MARKING_CONCURRENT: return "G1 concurrent cycle";
    case HS_MARKING_FORCED: return "forced collection (gc=1)";
    default: return "none";
    }
}
