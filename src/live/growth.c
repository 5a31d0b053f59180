/* growth.c: per-GC in-use records per site kept at four horizons, and the ranking of
 * growing sites (see growth.h for the estimates, their errors and the memory bound). */
#include "live/growth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/estimate.h" /* hs_ht_variance: sum W (W - 1) size^2 */

/* One site in a point: sums over its samples that survived the GC (born before the
 * point's epoch), over those a marking judged (born before judged_before), and over the
 * judged ones born before the epoch of the horizon's first point (the "pre" sums) and of
 * its middle point (the "mid" sums; still_growing). */
typedef struct {
    uint32_t bucket, n, nc, unused;
    double w, w2;         /* survivors */
    double wc, w2c;       /* judged (confirmed) */
    double w_pre, w2_pre; /* judged and born before the first point's epoch */
    double w_mid, w2_mid; /* judged and born before the middle point's epoch */
} growth_cell;

typedef struct {
    uint32_t epoch, judged_before;
    int64_t time_nanos;
    growth_cell *cells; /* sorted by bucket */
    uint32_t ncells;
    double dropped_w;   /* largest weight of a site left out (HS_GROWTH_MAX_SITES); 0: none */
    bool has_mid;       /* the ring had a middle point when this one was its newest: */
    uint32_t mid_epoch; /* that point's epoch (its cells' mid sums' boundary) */
} growth_point;

typedef struct {
    growth_point ring[HS_GROWTH_WINDOW];
    uint32_t next, count;
    /* the record being built: replaces the newest point (same period) or is pushed */
    int replace;
    uint32_t pre_before; /* its pre sums count samples born before this */
    bool has_mid;        /* the ring will have a middle point with the record as newest, */
    uint32_t mid_before; /* whose epoch bounds the record's mid sums */
} growth_ring;

/* The record being built: one cell per bucket it met, in the order met (dense, so its size
 * follows the survivors' sites, not the highest bucket id: a bucket-indexed array cost 200
 * bytes per bucket of the sample table, 16 MB at memory=64m, and a cache miss per add). */
typedef struct {
    uint32_t bucket;
    uint32_t n, nc;
    double w, w2, wc, w2c;
    double w_pre[HS_GROWTH_HORIZONS], w2_pre[HS_GROWTH_HORIZONS];
    double w_mid[HS_GROWTH_HORIZONS], w2_mid[HS_GROWTH_HORIZONS];
} scratch_cell;

/* Records' epochs and wall times, newest last: when the newest judged figure's boundary
 * (judged_before) was crossed, i.e. up to when growth can be judged. */
#define EPOCH_TIMES 64

struct hs_growth {
    growth_ring horizon[HS_GROWTH_HORIZONS];
    uint32_t seen_epoch[EPOCH_TIMES];
    int64_t seen_nanos[EPOCH_TIMES];
    uint32_t seen_next, seen_count;
    scratch_cell *scratch; /* the record's cells, ntouched of them */
    uint32_t scratch_cap;
    uint32_t *index;       /* open addressing: bucket -> its cell + 1 (0: empty) */
    uint32_t index_cap;    /* a power of two, at least twice ntouched */
    uint32_t *touched;     /* cells in the order a point keeps them (end) */
    uint32_t ntouched, touched_cap;
    uint32_t epoch, judged_before;
    int64_t time_nanos;
    int failed;
    int64_t walk_nanos;
    uint32_t walk_entries;
};

/* Seconds per point at each time horizon (0: not a time horizon). */
static const int64_t PERIOD_SECONDS[HS_GROWTH_HORIZONS] = {0, 0, HS_GROWTH_SECONDS_PERIOD, 60, 3600};

const char *hs_growth_horizon_name(hs_growth_horizon h) {
    static const char *const names[HS_GROWTH_HORIZONS] = {"GCs", "markings", "seconds", "minutes",
                                                          "hours"};
    return h < HS_GROWTH_HORIZONS ? names[h] : "?";
}

hs_growth *hs_growth_create(void) { return calloc(1, sizeof(hs_growth)); }

void hs_growth_destroy(hs_growth *g) {
    if (!g) return;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        for (uint32_t i = 0; i < HS_GROWTH_WINDOW; i++) free(g->horizon[h].ring[i].cells);
    free(g->scratch);
    free(g->index);
    free(g->touched);
    free(g);
}

static const growth_point *point_at(const growth_ring *r, uint32_t i) { /* 0 = oldest */
    return &r->ring[(r->next + HS_GROWTH_WINDOW - r->count + i) % HS_GROWTH_WINDOW];
}

static int64_t period_of(hs_growth_horizon h, int64_t nanos) {
    return PERIOD_SECONDS[h] ? nanos / (PERIOD_SECONDS[h] * 1000000000) : 0;
}

/* The middle point of a ring whose points are the ring's [first, end) followed by a
 * newest one whose judged figure covers what was born before epoch `judged` (at time
 * t_judged): of the points between the ends that survivors born before `judged` can be
 * compared with (epoch <= judged), the one nearest the middle of [first, t_judged]; NULL
 * when none (end - first >= 2). In time, not in GCs: the GCs that crowd in before an
 * OutOfMemoryError grow nothing, and by count they would make up the whole second half.
 * Up to t_judged, not now: after the last marking the judged figure stands still while
 * time goes on (G1 may not start another for minutes), and a middle taken between the
 * first point and now would soon fall after the marking, where the survivors it counts
 * include what no marking has judged yet: a leak would drop out of the ranking until the
 * next marking. */
static const growth_point *middle_in_time(const growth_ring *r, uint32_t first, uint32_t end,
                                          uint32_t judged, int64_t t_judged) {
    int64_t t0 = point_at(r, first)->time_nanos, middle = t0 + (t_judged - t0) / 2;
    const growth_point *best = NULL;
    for (uint32_t i = first + 1; i < end; i++) {
        const growth_point *p = point_at(r, i);
        if (p->epoch > judged) break; /* epochs rise along the ring */
        if (!best || llabs(p->time_nanos - middle) < llabs(best->time_nanos - middle)) best = p;
    }
    return best;
}

/* The wall time of epoch `judged` (the first record at or after it; `now` for the record
 * being built), or of the oldest record remembered when it is older than all of them. */
static int64_t time_of_epoch(const hs_growth *g, uint32_t judged, int64_t now) {
    int64_t t = now;
    for (uint32_t i = 0; i < g->seen_count; i++) {
        uint32_t slot = (g->seen_next + EPOCH_TIMES - 1 - i) % EPOCH_TIMES; /* newest first */
        if (g->seen_epoch[slot] < judged) break;
        t = g->seen_nanos[slot];
    }
    return t;
}

/* Whether the record replaces ring h's newest point (same period: the same minute or
 * hour, the same marking; every GC is a point of its own), and, once it is in, the epoch
 * of the ring's first point (its pre sums' boundary) and of its middle point (its mid
 * sums' boundary; none below three points). */
static void plan_ring(growth_ring *r, hs_growth_horizon h, uint32_t epoch, uint32_t judged_before,
                      int64_t t, int64_t t_judged) {
    const growth_point *newest = r->count > 0 ? point_at(r, r->count - 1) : NULL;
    r->replace = newest && (h == HS_HORIZON_MARKINGS ? newest->judged_before == judged_before
                            : PERIOD_SECONDS[h]      ? period_of(h, newest->time_nanos) == period_of(h, t)
                                                     : 0);
    /* the points that stay: [first, end), then the record */
    uint32_t first = !r->replace && r->count == HS_GROWTH_WINDOW ? 1 : 0;
    uint32_t end = r->replace ? r->count - 1 : r->count;
    /* no point stays: the record will be the first point itself */
    r->pre_before = end > first ? point_at(r, first)->epoch : epoch;
    const growth_point *mid =
        end >= first + 2 ? middle_in_time(r, first, end, judged_before, t_judged) : NULL;
    r->has_mid = mid != NULL;
    r->mid_before = mid ? mid->epoch : 0;
}

void hs_growth_begin(hs_growth *g, uint32_t epoch, uint32_t judged_before, int64_t time_nanos) {
    g->epoch = epoch;
    g->judged_before = judged_before < epoch ? judged_before : epoch;
    g->time_nanos = time_nanos;
    g->failed = 0;
    g->ntouched = 0; /* the cells of the last record are written over as they are met */
    if (g->index) memset(g->index, 0, (size_t)g->index_cap * sizeof *g->index);
    int64_t t_judged = time_of_epoch(g, g->judged_before, time_nanos);
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        plan_ring(&g->horizon[h], (hs_growth_horizon)h, epoch, g->judged_before, time_nanos,
                  t_judged);
    g->seen_epoch[g->seen_next] = epoch;
    g->seen_nanos[g->seen_next] = time_nanos;
    g->seen_next = (g->seen_next + 1) % EPOCH_TIMES;
    if (g->seen_count < EPOCH_TIMES) g->seen_count++;
}

static int grow(void **array, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap) return 0;
    uint64_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    if (n > UINT32_MAX) return -1;
    void *p = realloc(*array, (size_t)n * elem);
    if (!p) return -1;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem); /* start empty */
    *array = p;
    *cap = (uint32_t)n;
    return 0;
}

static uint32_t index_home(uint32_t bucket, uint32_t cap) {
    return (bucket * UINT32_C(2654435761)) & (cap - 1); /* Knuth's multiplicative hash */
}

/* Where bucket's cell is, or the empty place it would go. */
static uint32_t *index_place(const hs_growth *g, uint32_t bucket) {
    uint32_t i = index_home(bucket, g->index_cap);
    while (g->index[i] != 0 && g->scratch[g->index[i] - 1].bucket != bucket)
        i = (i + 1) & (g->index_cap - 1);
    return &g->index[i];
}

/* Keeps the index at most half full: doubles and re-places the cells when it would not be. */
static int index_reserve(hs_growth *g, uint32_t cells) {
    if ((uint64_t)cells * 2 <= g->index_cap) return 0;
    uint64_t cap = g->index_cap ? (uint64_t)g->index_cap * 2 : 512;
    while (cap < (uint64_t)cells * 2) cap *= 2;
    if (cap > UINT32_MAX / 2) return -1;
    uint32_t *index = calloc((size_t)cap, sizeof *index);
    if (!index) return -1;
    free(g->index);
    g->index = index;
    g->index_cap = (uint32_t)cap;
    for (uint32_t c = 0; c < g->ntouched; c++) *index_place(g, g->scratch[c].bucket) = c + 1;
    return 0;
}

/* The record's cell of bucket, added empty when it has none; NULL when out of memory. */
static scratch_cell *cell_of(hs_growth *g, uint32_t bucket) {
    if (index_reserve(g, g->ntouched + 1) != 0 ||
        grow((void **)&g->scratch, &g->scratch_cap, g->ntouched + 1, sizeof *g->scratch) != 0)
        return NULL;
    uint32_t *place = index_place(g, bucket);
    if (*place != 0) return &g->scratch[*place - 1];
    g->scratch[g->ntouched] = (scratch_cell){.bucket = bucket};
    *place = ++g->ntouched;
    return &g->scratch[g->ntouched - 1];
}

void hs_growth_add(hs_growth *g, uint32_t bucket, uint32_t alloc_epoch, double weight) {
    if (g->failed || !(weight > 0) || bucket == UINT32_MAX) return;
    scratch_cell *c = cell_of(g, bucket);
    if (!c) {
        g->failed = 1;
        return;
    }
    c->n++;
    c->w += weight;
    c->w2 += weight * weight;
    if (alloc_epoch >= g->judged_before) return; /* survived, not judged */
    c->nc++;
    c->wc += weight;
    c->w2c += weight * weight;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++) {
        if (g->horizon[h].has_mid && alloc_epoch < g->horizon[h].mid_before) {
            c->w_mid[h] += weight;
            c->w2_mid[h] += weight * weight;
        }
        if (alloc_epoch >= g->horizon[h].pre_before) continue;
        c->w_pre[h] += weight;
        c->w2_pre[h] += weight * weight;
    }
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Orders cells by bucket, or by weight, largest first (qsort has no context: a static
 * pointer, set by the one recording thread just before sorting). */
static const scratch_cell *sorted_cells;

static int compare_bucket(const void *a, const void *b) {
    uint32_t x = sorted_cells[*(const uint32_t *)a].bucket,
             y = sorted_cells[*(const uint32_t *)b].bucket;
    return (x > y) - (x < y);
}

static int compare_weight(const void *a, const void *b) {
    double x = sorted_cells[*(const uint32_t *)a].w, y = sorted_cells[*(const uint32_t *)b].w;
    return (x < y) - (x > y);
}

/* The cells a point keeps, the HS_GROWTH_MAX_SITES heaviest, as the first *kept of
 * g->touched, sorted by bucket; *dropped: the largest weight left out, 0 when none was.
 * Returns -1 when out of memory. */
static int pick_cells(hs_growth *g, uint32_t *kept, double *dropped) {
    *kept = 0;
    *dropped = 0;
    if (g->ntouched == 0) return 0; /* touched may still be NULL: qsort must not see it */
    if (grow((void **)&g->touched, &g->touched_cap, g->ntouched, sizeof *g->touched) != 0)
        return -1;
    for (uint32_t i = 0; i < g->ntouched; i++) g->touched[i] = i;
    sorted_cells = g->scratch;
    *kept = g->ntouched;
    if (*kept > HS_GROWTH_MAX_SITES) {
        qsort(g->touched, g->ntouched, sizeof *g->touched, compare_weight);
        *dropped = g->scratch[g->touched[HS_GROWTH_MAX_SITES]].w;
        *kept = HS_GROWTH_MAX_SITES;
    }
    qsort(g->touched, *kept, sizeof *g->touched, compare_bucket);
    return 0;
}

/* Ring h's copy of the record's `kept` cells, with that horizon's pre sums. */
static growth_cell *cells_for(const hs_growth *g, uint32_t kept, int h) {
    growth_cell *cells = malloc(((size_t)kept + 1) * sizeof *cells);
    for (uint32_t i = 0; cells && i < kept; i++) {
        const scratch_cell *s = &g->scratch[g->touched[i]];
        cells[i] = (growth_cell){.bucket = s->bucket, .n = s->n, .nc = s->nc, .w = s->w,
                                 .w2 = s->w2, .wc = s->wc, .w2c = s->w2c, .w_pre = s->w_pre[h],
                                 .w2_pre = s->w2_pre[h], .w_mid = s->w_mid[h],
                                 .w2_mid = s->w2_mid[h]};
    }
    return cells;
}

static void put_point(growth_ring *r, growth_point p) {
    uint32_t slot = r->replace ? (r->next + HS_GROWTH_WINDOW - 1) % HS_GROWTH_WINDOW : r->next;
    free(r->ring[slot].cells);
    r->ring[slot] = p;
    if (r->replace) return;
    r->next = (r->next + 1) % HS_GROWTH_WINDOW;
    if (r->count < HS_GROWTH_WINDOW) r->count++;
}

int hs_growth_end(hs_growth *g) {
    uint32_t kept = 0;
    double dropped = 0;
    growth_cell *cells[HS_GROWTH_HORIZONS] = {0};
    int ok = !g->failed && pick_cells(g, &kept, &dropped) == 0;
    for (int h = 0; ok && h < HS_GROWTH_HORIZONS; h++)
        ok = (cells[h] = cells_for(g, kept, h)) != NULL;
    if (!ok) {
        for (int h = 0; h < HS_GROWTH_HORIZONS; h++) free(cells[h]);
        return -1;
    }
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        put_point(&g->horizon[h], (growth_point){g->epoch, g->judged_before, g->time_nanos,
                                                 cells[h], kept, dropped,
                                                 g->horizon[h].has_mid, g->horizon[h].mid_before});
    return 0;
}

uint32_t hs_growth_records(const hs_growth *g) { return g->horizon[HS_HORIZON_GCS].count; }

uint32_t hs_growth_points(const hs_growth *g, hs_growth_horizon h) {
    return h < HS_GROWTH_HORIZONS ? g->horizon[h].count : 0;
}

size_t hs_growth_memory(const hs_growth *g) {
    size_t bytes = 0;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        for (uint32_t i = 0; i < g->horizon[h].count; i++)
            bytes += point_at(&g->horizon[h], i)->ncells * sizeof(growth_cell);
    return bytes;
}

size_t hs_growth_record_memory(const hs_growth *g) {
    return (size_t)g->scratch_cap * sizeof *g->scratch + (size_t)g->index_cap * sizeof *g->index +
           (size_t)g->touched_cap * sizeof *g->touched;
}

void hs_growth_note_walk(hs_growth *g, int64_t nanos, uint32_t entries) {
    g->walk_nanos = nanos;
    g->walk_entries = entries;
}

void hs_growth_last_walk(const hs_growth *g, int64_t *nanos, uint32_t *entries) {
    *nanos = g->walk_nanos;
    *entries = g->walk_entries;
}

static const growth_cell *find_cell(const growth_point *p, uint32_t bucket) {
    uint32_t lo = 0, hi = p->ncells;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->cells[mid].bucket < bucket) lo = mid + 1;
        else hi = mid;
    }
    return lo < p->ncells && p->cells[lo].bucket == bucket ? &p->cells[lo] : NULL;
}

/* One bucket of a site: what a unit of its weight stands for. */
typedef struct {
    uint64_t site;
    uint32_t bucket;
    double size, scale;
} site_member;

/* A site's sums over its member buckets in one point: its survivors' estimate (a member
 * left out of a full point counted at the point's dropped_w, which can only understate
 * growth), the judged estimate, their variances, the judged variance of what was born
 * before the ring's first point and before its middle point, and the member holding most
 * judged bytes (it names the site). */
typedef struct {
    uint32_t nc;
    double bytes, var, bytes_c, var_c, var_pre, var_mid;
    uint32_t rep_bucket;
    double rep_bytes;
} site_sums;

static site_sums sums_in(const growth_point *p, const site_member *m, uint32_t k) {
    site_sums s = {.rep_bucket = m[0].bucket, .rep_bytes = -1};
    for (uint32_t i = 0; i < k; i++) {
        const growth_cell *c = find_cell(p, m[i].bucket);
        double f = m[i].size * m[i].scale;
        if (!c) {
            s.bytes += f * p->dropped_w;
            continue;
        }
        s.nc += c->nc;
        s.bytes += f * c->w;
        s.var += hs_ht_variance(m[i].size, m[i].scale, c->w, c->w2);
        s.bytes_c += f * c->wc;
        s.var_c += hs_ht_variance(m[i].size, m[i].scale, c->wc, c->w2c);
        s.var_pre += hs_ht_variance(m[i].size, m[i].scale, c->w_pre, c->w2_pre);
        s.var_mid += hs_ht_variance(m[i].size, m[i].scale, c->w_mid, c->w2_mid);
            if (f * c->wc > s.rep_bytes) {
            s.rep_bytes = f * c->wc;
            s.rep_bucket = m[i].bucket;
        }
    }
    return s;
}

/* Least-squares slopes of the site's estimate over the points of a ring, against the
 * epochs and against the wall clock. */
static void slopes(const growth_ring *r, const site_member *m, uint32_t k, hs_growth_site *s) {
    double n = r->count, sx = 0, st = 0, sy = 0, sxx = 0, stt = 0, sxy = 0, sty = 0;
    const growth_point *first = point_at(r, 0);
    for (uint32_t i = 0; i < r->count; i++) {
        const growth_point *p = point_at(r, i);
        double x = (double)(p->epoch - first->epoch);
        double t = (double)(p->time_nanos - first->time_nanos) / 1e9;
        double y = sums_in(p, m, k).bytes;
        sx += x, st += t, sy += y, sxx += x * x, stt += t * t, sxy += x * y, sty += t * y;
    }
    double den_x = n * sxx - sx * sx, den_t = n * stt - st * st;
    s->slope_bytes_per_gc = den_x > 0 ? (n * sxy - sx * sy) / den_x : 0;
    s->slope_bytes_per_second = den_t > 0 ? (n * sty - st * sy) / den_t : 0;
}

/* The newest point's middle point (chosen when it was recorded: plan_ring); NULL when the
 * ring had none. */
static const growth_point *middle_of(const growth_ring *r) {
    const growth_point *last = point_at(r, r->count - 1);
    for (uint32_t i = 1; last->has_mid && i + 1 < r->count; i++)
        if (point_at(r, i)->epoch == last->mid_epoch) return point_at(r, i);
    return NULL;
}

/* The second half of the horizon must grow too: a site that filled up once (a cache
 * warming, a set built at startup) and stays steady would otherwise be named until its
 * ramp left the horizon (16 minutes, 16 hours). The growth from the middle point (in time)
 * to the newest, judged newest minus survivors at the middle, must exceed
 * HS_GROWTH_STILL_SIGMAS standard errors of that difference. As for the whole horizon
 * (judge), what is judged live now and was born before the middle point's epoch was
 * alive there and cancels out: the difference's variance is that of what was born since
 * and is judged live now, plus that of what survived at the middle and is not judged now.
 * (The two figures' variances added instead, shared samples counted twice, asked a 200 MB
 * leaking site for 29 MB of growth in the half where it grew 12 MB.) A steady leak grows
 * by half its total there. */
/* Variance of (newest confirmed − earlier figure) when `shared` is the variance of the
 * samples counted in both (confirmed now, born before the earlier point): they cancel,
 * what was born or died in between does not. */
static double difference_variance(double newest, double earlier, double shared) {
    return fmax(newest - shared, 0) + fmax(earlier - shared, 0);
}

static bool still_growing(const growth_ring *r, hs_growth_horizon h, const site_sums *last,
                          const site_member *m, uint32_t k) {
    /* No middle point: a GC or marking horizon is judged whole (an OutOfMemoryError may
     * leave no more); a time horizon of two points is a period and a bit, too short to
     * tell a warm-up from a leak, so it names nothing. */
    const growth_point *mid_p = r->count >= 3 ? middle_of(r) : NULL;
    if (!mid_p) return r->count < 3 && !PERIOD_SECONDS[h];
    site_sums mid = sums_in(mid_p, m, k);
    double var = difference_variance(last->var_c, mid.var, last->var_mid);
    return last->bytes_c - mid.bytes > HS_GROWTH_STILL_SIGMAS * sqrt(var);
}

/* A leak keeps what a marking found live: its confirmed figure never falls back from one
 * marking to the next. A sawtooth does, and it must not be read as growth: class churn
 * (issue 25) is one. A G1 marking takes what was young at its start as live (it sits in
 * regions allocated since the marking began) and young collections keep every class
 * loader alive, so the JDK's per-class objects (a loader's maps, reflection data,
 * mirrors) were confirmed by each marking and freed by the next, a varying amount each
 * time; the figure of a marking that found many, against an earlier point where one found
 * few, was read as growth (+0.5-2.5 MB of ConcurrentHashMaps, Methods, mirrors). True when
 * the site's confirmed figure fell, between two consecutive points of the markings
 * horizon from the last one at or before `since` (the horizon's first point, wall clock)
 * on, by more than HS_GROWTH_STILL_SIGMAS standard
 * errors of the two figures' variances added (shared samples not cancelled: the lenient
 * side; thinning in between adds noise of that order). */
static bool fell_back(const growth_ring *markings, int64_t since, const site_member *m,
                      uint32_t k) {
    uint32_t from = 0; /* the last marking at or before `since`: the horizon's base */
    for (uint32_t i = 1; i < markings->count && point_at(markings, i)->time_nanos <= since; i++)
        from = i;
    site_sums before = {0};
    bool have_before = false;
    for (uint32_t i = from; i < markings->count; i++) {
        site_sums now = sums_in(point_at(markings, i), m, k);
        if (have_before &&
            before.bytes_c - now.bytes_c > HS_GROWTH_STILL_SIGMAS * sqrt(before.var_c + now.var_c))
            return true;
        before = now;
        have_before = true;
    }
    return false;
}

/* Fills *s for the site of members m[0 .. k) at ring r; 0 when it is no finding. The
 * newest point counts what a marking judged, the first everything that survived its GC:
 * dead objects not yet collected can only raise the first figure, so they can only hide
 * growth, never fake it. A site is judged over all its buckets (its stacks, its sizes):
 * a cache filled from one stack at startup and refilled from another would otherwise
 * show the second stack "growing" while the first one shrinks. */
static int judge(const hs_growth *g, hs_growth_horizon h, bool whole, const site_member *m,
                 uint32_t k, hs_growth_site *s) {
    const growth_ring *r = &g->horizon[h];
    const growth_point *first_p = point_at(r, 0), *last_p = point_at(r, r->count - 1);
    site_sums last = sums_in(last_p, m, k), first = sums_in(first_p, m, k);
    if (last.nc == 0) return 0;
    double var = difference_variance(last.var_c, first.var, last.var_pre);
    *s = (hs_growth_site){
        .bucket = last.rep_bucket,
        .horizon = h,
        .first_bytes = first.bytes,
        .last_bytes = last.bytes_c,
        .first_epoch = first_p->epoch,
        .last_epoch = last_p->epoch,
        .first_nanos = first_p->time_nanos,
        .last_nanos = last_p->time_nanos,
        .samples = last.nc,
        .per_gc = h == HS_HORIZON_GCS,
    };
    s->growth_bytes = s->last_bytes - s->first_bytes;
    s->growth_sigma = sqrt(var);
    if (!(s->growth_bytes > 0) || s->growth_bytes <= HS_GROWTH_SIGMAS * s->growth_sigma) return 0;
    if (!whole && !still_growing(r, h, &last, m, k)) return 0;
    if (!whole && fell_back(&g->horizon[HS_HORIZON_MARKINGS], first_p->time_nanos, m, k)) return 0;
    slopes(r, m, k, s);
    return 1;
}

/* Inserts s into out[0 .. *n) kept sorted by growth, largest first, at most max. */
static void insert_ranked(hs_growth_site *out, uint32_t *n, uint32_t max, const hs_growth_site *s) {
    uint32_t i = *n < max ? (*n)++ : max;
    while (i > 0 && out[i - 1].growth_bytes < s->growth_bytes) {
        if (i < max) out[i] = out[i - 1];
        i--;
    }
    if (i < max) out[i] = *s;
}

static double z_of(const hs_growth_site *s) {
    return s->growth_sigma > 0 ? s->growth_bytes / s->growth_sigma : INFINITY;
}

/* The site's finding at the horizons [from, to] where it is most significant; 0 when none. */
static int best_finding(const hs_growth *g, int from, int to, bool whole, const site_member *m,
                        uint32_t k, hs_growth_site *best) {
    int found = 0;
    for (int h = from; h <= to; h++) {
        const growth_ring *r = &g->horizon[h];
        hs_growth_site s;
        if (r->count < 2 || !judge(g, (hs_growth_horizon)h, whole, m, k, &s)) continue;
        if (!found || z_of(&s) > z_of(best)) *best = s;
        found = 1;
    }
    return found;
}

static int compare_members(const void *a, const void *b) {
    const site_member *x = a, *y = b;
    if (x->site != y->site) return x->site < y->site ? -1 : 1;
    return (x->bucket > y->bucket) - (x->bucket < y->bucket);
}

/* Every bucket some point holds, with its size, scale and site (unknown buckets left out),
 * sorted by site: a site's buckets are adjacent. NULL when out of memory or empty. */
static site_member *members_of(const hs_growth *g, hs_growth_bucket_fn info, void *ctx,
                               uint32_t *count) {
    size_t cells = 0;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        for (uint32_t i = 0; i < g->horizon[h].count; i++) cells += point_at(&g->horizon[h], i)->ncells;
    uint32_t *buckets = malloc((cells + 1) * sizeof *buckets);
    site_member *m = malloc((cells + 1) * sizeof *m);
    uint32_t n = 0, k = 0;
    for (int h = 0; buckets && m && h < HS_GROWTH_HORIZONS; h++)
        for (uint32_t i = 0; i < g->horizon[h].count; i++) {
            const growth_point *p = point_at(&g->horizon[h], i);
            for (uint32_t c = 0; c < p->ncells; c++) buckets[n++] = p->cells[c].bucket;
        }
    if (n > 0) qsort(buckets, n, sizeof *buckets, compare_u32);
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && buckets[i] == buckets[i - 1]) continue;
        site_member *x = &m[k];
        x->bucket = buckets[i];
        if (info(x->bucket, &x->size, &x->scale, &x->site, ctx)) k++;
    }
    free(buckets);
    if (k > 0) qsort(m, k, sizeof *m, compare_members);
    *count = k;
    if (k == 0) {
        free(m);
        return NULL;
    }
    return m;
}

/* Whether one of the site's buckets is in the newest record (every horizon's newest point). */
static bool in_newest(const hs_growth *g, const site_member *m, uint32_t k) {
    const growth_ring *gcs = &g->horizon[HS_HORIZON_GCS];
    for (uint32_t i = 0; i < k; i++)
        if (find_cell(point_at(gcs, gcs->count - 1), m[i].bucket)) return true;
    return false;
}

/* Ranks the sites at horizons [from, to]; only the site of `bucket` when bucket is not
 * UINT32_MAX. */
static uint32_t rank_sites(const hs_growth *g, int from, int to, bool whole, uint32_t bucket,
                           hs_growth_bucket_fn info, void *ctx, hs_growth_site *out, uint32_t max) {
    uint32_t n = 0, count = 0;
    if (g->horizon[HS_HORIZON_GCS].count < 1 || max == 0) return 0;
    site_member *m = members_of(g, info, ctx, &count);
    uint64_t only = 0;
    for (uint32_t i = 0; bucket != UINT32_MAX && i < count; i++)
        if (m[i].bucket == bucket) only = m[i].site + 1; /* + 1: 0 means not found */
    for (uint32_t i = 0, k; i < count; i += k) {
        for (k = 1; i + k < count && m[i + k].site == m[i].site; k++) {}
        hs_growth_site s;
        if (bucket != UINT32_MAX && m[i].site + 1 != only) continue;
        if (in_newest(g, &m[i], k) && best_finding(g, from, to, whole, &m[i], k, &s))
            insert_ranked(out, &n, max, &s);
    }
    free(m);
    return n;
}

uint32_t hs_growth_rank(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                        hs_growth_site *out, uint32_t max) {
    return hs_growth_rank_at(g, false, bucket_info, ctx, out, max);
}

uint32_t hs_growth_rank_at(const hs_growth *g, bool heap_exhausted, hs_growth_bucket_fn bucket_info,
                           void *ctx, hs_growth_site *out, uint32_t max) {
    return rank_sites(g, 0, HS_GROWTH_HORIZONS - 1, heap_exhausted, UINT32_MAX, bucket_info, ctx,
                      out, max);
}

uint32_t hs_growth_rank_horizon(const hs_growth *g, hs_growth_horizon h,
                                hs_growth_bucket_fn bucket_info, void *ctx, hs_growth_site *out,
                                uint32_t max) {
    if (h >= HS_GROWTH_HORIZONS) return 0;
    return rank_sites(g, (int)h, (int)h, false, UINT32_MAX, bucket_info, ctx, out, max);
}

bool hs_growth_suspect(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                       uint32_t bucket, hs_growth_site *out) {
    hs_growth_site s;
    if (bucket == UINT32_MAX ||
        rank_sites(g, 0, HS_GROWTH_HORIZONS - 1, false, bucket, bucket_info, ctx, &s, 1) == 0)
        return false;
    if (out) *out = s;
    return true;
}
