/* growth.c: per-GC in-use records per site kept at three horizons, and the ranking of
 * growing sites (see growth.h for the estimates, their errors and the memory bound). */
#include "growth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One site in a point: sums over its samples that survived the GC (born before the
 * point's epoch), over those a marking judged (born before judged_before), and over the
 * judged ones born before the epoch of the horizon's first point (the "pre" sums). */
typedef struct {
    uint32_t bucket, n, nc, unused;
    double w, w2;         /* survivors */
    double wc, w2c;       /* judged (confirmed) */
    double w_pre, w2_pre; /* judged and born before the first point's epoch */
} growth_cell;

typedef struct {
    uint32_t epoch, judged_before;
    int64_t time_nanos;
    growth_cell *cells; /* sorted by bucket */
    uint32_t ncells;
    double dropped_w;   /* largest weight of a site left out (HS_GROWTH_MAX_SITES); 0: none */
} growth_point;

typedef struct {
    growth_point ring[HS_GROWTH_WINDOW];
    uint32_t next, count;
    /* the record being built: replaces the newest point (same period) or is pushed */
    int replace;
    uint32_t pre_before; /* its pre sums count samples born before this */
} growth_ring;

/* The record being built: dense per bucket. */
typedef struct {
    uint32_t n, nc;
    double w, w2, wc, w2c;
    double w_pre[HS_GROWTH_HORIZONS], w2_pre[HS_GROWTH_HORIZONS];
} scratch_cell;

struct hs_growth {
    growth_ring horizon[HS_GROWTH_HORIZONS];
    scratch_cell *scratch;
    uint32_t scratch_cap;
    uint32_t *touched;
    uint32_t ntouched, touched_cap;
    uint32_t epoch, judged_before;
    int64_t time_nanos;
    int failed;
    int64_t walk_nanos;
    uint32_t walk_entries;
};

/* Seconds per point at each time horizon (0: not a time horizon). */
static const int64_t PERIOD_SECONDS[HS_GROWTH_HORIZONS] = {0, 0, 60, 3600};

const char *hs_growth_horizon_name(hs_growth_horizon h) {
    static const char *const names[HS_GROWTH_HORIZONS] = {"GCs", "markings", "minutes", "hours"};
    return h < HS_GROWTH_HORIZONS ? names[h] : "?";
}

hs_growth *hs_growth_create(void) { return calloc(1, sizeof(hs_growth)); }

void hs_growth_destroy(hs_growth *g) {
    if (!g) return;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        for (uint32_t i = 0; i < HS_GROWTH_WINDOW; i++) free(g->horizon[h].ring[i].cells);
    free(g->scratch);
    free(g->touched);
    free(g);
}

static const growth_point *point_at(const growth_ring *r, uint32_t i) { /* 0 = oldest */
    return &r->ring[(r->next + HS_GROWTH_WINDOW - r->count + i) % HS_GROWTH_WINDOW];
}

static int64_t period_of(hs_growth_horizon h, int64_t nanos) {
    return PERIOD_SECONDS[h] ? nanos / (PERIOD_SECONDS[h] * 1000000000) : 0;
}

/* Whether the record replaces ring h's newest point (same period: the same minute or
 * hour, the same marking; every GC is a point of its own), and the epoch of the ring's
 * first point once it is in (its pre sums' boundary). */
static void plan_ring(growth_ring *r, hs_growth_horizon h, uint32_t epoch, uint32_t judged_before,
                      int64_t t) {
    const growth_point *newest = r->count > 0 ? point_at(r, r->count - 1) : NULL;
    r->replace = newest && (h == HS_HORIZON_MARKINGS ? newest->judged_before == judged_before
                            : PERIOD_SECONDS[h]      ? period_of(h, newest->time_nanos) == period_of(h, t)
                                                     : 0);
    if (r->count == 0 || (r->replace && r->count == 1)) {
        r->pre_before = epoch; /* the record will be the first point itself */
        return;
    }
    uint32_t first = !r->replace && r->count == HS_GROWTH_WINDOW ? 1 : 0;
    r->pre_before = point_at(r, first)->epoch;
}

void hs_growth_begin(hs_growth *g, uint32_t epoch, uint32_t judged_before, int64_t time_nanos) {
    g->epoch = epoch;
    g->judged_before = judged_before < epoch ? judged_before : epoch;
    g->time_nanos = time_nanos;
    g->failed = 0;
    g->ntouched = 0;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        plan_ring(&g->horizon[h], (hs_growth_horizon)h, epoch, g->judged_before, time_nanos);
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

void hs_growth_add(hs_growth *g, uint32_t bucket, uint32_t alloc_epoch, double weight) {
    if (g->failed || !(weight > 0) || bucket == UINT32_MAX) return;
    if (grow((void **)&g->scratch, &g->scratch_cap, bucket + 1, sizeof *g->scratch) != 0 ||
        grow((void **)&g->touched, &g->touched_cap, g->ntouched + 1, sizeof *g->touched) != 0) {
        g->failed = 1;
        return;
    }
    scratch_cell *c = &g->scratch[bucket];
    if (c->n == 0) g->touched[g->ntouched++] = bucket;
    c->n++;
    c->w += weight;
    c->w2 += weight * weight;
    if (alloc_epoch >= g->judged_before) return; /* survived, not judged */
    c->nc++;
    c->wc += weight;
    c->w2c += weight * weight;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++) {
        if (alloc_epoch >= g->horizon[h].pre_before) continue;
        c->w_pre[h] += weight;
        c->w2_pre[h] += weight * weight;
    }
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Orders buckets by their scratch weight, largest first (qsort has no context: a static
 * pointer, set by the one recording thread just before sorting). */
static const scratch_cell *weight_order;

static int compare_weight(const void *a, const void *b) {
    double x = weight_order[*(const uint32_t *)a].w, y = weight_order[*(const uint32_t *)b].w;
    return (x < y) - (x > y);
}

/* Keeps the HS_GROWTH_MAX_SITES heaviest touched buckets (sorted by bucket again); returns
 * the largest weight left out, 0 when none was. Cells left out are cleared. */
static double keep_heaviest(hs_growth *g) {
    if (g->ntouched <= HS_GROWTH_MAX_SITES) return 0;
    weight_order = g->scratch;
    qsort(g->touched, g->ntouched, sizeof *g->touched, compare_weight);
    double dropped = g->scratch[g->touched[HS_GROWTH_MAX_SITES]].w;
    for (uint32_t i = HS_GROWTH_MAX_SITES; i < g->ntouched; i++)
        g->scratch[g->touched[i]] = (scratch_cell){0};
    g->ntouched = HS_GROWTH_MAX_SITES;
    return dropped;
}

/* Ring h's copy of the record: cells with that horizon's pre sums. */
static growth_cell *cells_for(const hs_growth *g, int h) {
    growth_cell *cells = malloc(((size_t)g->ntouched + 1) * sizeof *cells);
    for (uint32_t i = 0; cells && i < g->ntouched; i++) {
        const scratch_cell *s = &g->scratch[g->touched[i]];
        cells[i] = (growth_cell){.bucket = g->touched[i], .n = s->n, .nc = s->nc, .w = s->w,
                                 .w2 = s->w2, .wc = s->wc, .w2c = s->w2c, .w_pre = s->w_pre[h],
                                 .w2_pre = s->w2_pre[h]};
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
    double dropped = g->failed ? 0 : keep_heaviest(g);
    if (g->ntouched > 0) /* touched may still be NULL: qsort must not see it */
        qsort(g->touched, g->ntouched, sizeof *g->touched, compare_u32);
    growth_cell *cells[HS_GROWTH_HORIZONS] = {0};
    int ok = !g->failed;
    for (int h = 0; ok && h < HS_GROWTH_HORIZONS; h++) ok = (cells[h] = cells_for(g, h)) != NULL;
    for (uint32_t i = 0; i < g->ntouched; i++) g->scratch[g->touched[i]] = (scratch_cell){0};
    if (!ok) {
        for (int h = 0; h < HS_GROWTH_HORIZONS; h++) free(cells[h]);
        return -1;
    }
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
        put_point(&g->horizon[h], (growth_point){g->epoch, g->judged_before, g->time_nanos,
                                                 cells[h], g->ntouched, dropped});
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

/* Variance estimate of size * scale * sum(w) from sum(w) and sum(w^2): sum W (W - 1). */
static double variance(double size, double scale, double w, double w2) {
    double v = size * size * (scale * scale * w2 - scale * w);
    return v > 0 ? v : 0;
}

/* A site's weight in a point; a site left out of a full point had at most dropped_w. */
static double weight_in(const growth_point *p, uint32_t bucket) {
    const growth_cell *c = find_cell(p, bucket);
    return c ? c->w : p->dropped_w;
}

/* Least-squares slopes of the site's estimate over the points of a ring, against the
 * epochs and against the wall clock. */
static void slopes(const growth_ring *r, uint32_t bucket, double bytes_per_w, hs_growth_site *s) {
    double n = r->count, sx = 0, st = 0, sy = 0, sxx = 0, stt = 0, sxy = 0, sty = 0;
    const growth_point *first = point_at(r, 0);
    for (uint32_t i = 0; i < r->count; i++) {
        const growth_point *p = point_at(r, i);
        double x = (double)(p->epoch - first->epoch);
        double t = (double)(p->time_nanos - first->time_nanos) / 1e9;
        double y = weight_in(p, bucket) * bytes_per_w;
        sx += x, st += t, sy += y, sxx += x * x, stt += t * t, sxy += x * y, sty += t * y;
    }
    double den_x = n * sxx - sx * sx, den_t = n * stt - st * st;
    s->slope_bytes_per_gc = den_x > 0 ? (n * sxy - sx * sy) / den_x : 0;
    s->slope_bytes_per_second = den_t > 0 ? (n * sty - st * sy) / den_t : 0;
}

/* The point nearest the middle of the ring's time span, neither end (count >= 3). In time,
 * not in GCs: the GCs that crowd in before an OutOfMemoryError grow nothing, and by count
 * they would make up the whole second half. */
static const growth_point *middle_in_time(const growth_ring *r) {
    const growth_point *first = point_at(r, 0), *last = point_at(r, r->count - 1);
    int64_t middle = first->time_nanos + (last->time_nanos - first->time_nanos) / 2;
    const growth_point *best = point_at(r, 1);
    for (uint32_t i = 2; i + 1 < r->count; i++) {
        const growth_point *p = point_at(r, i);
        if (llabs(p->time_nanos - middle) < llabs(best->time_nanos - middle)) best = p;
    }
    return best;
}

/* The second half of the horizon must grow too: a site that filled up once (a cache
 * warming, a set built at startup) and stays steady would otherwise be named until its
 * ramp left the horizon (16 minutes, 16 hours). The growth from the middle point (in time)
 * to the newest is judged with the two figures' variances added (their shared samples
 * would cancel: this overstates the error, so it only ever drops a finding), against
 * HS_GROWTH_STILL_SIGMAS. A steady leak grows by half its total there. */
static bool still_growing(const growth_ring *r, hs_growth_horizon h, const growth_cell *last,
                          double size, double scale) {
    /* No middle point: a GC or marking horizon is judged whole (an OutOfMemoryError may
     * leave no more); a time horizon of two points is a period and a bit, too short to
     * tell a warm-up from a leak, so it names nothing. */
    if (r->count < 3) return !PERIOD_SECONDS[h];
    const growth_point *mid_p = middle_in_time(r);
    const growth_cell *mid = find_cell(mid_p, last->bucket);
    double v_mid = mid ? variance(size, scale, mid->w, mid->w2) : 0;
    double v_last = variance(size, scale, last->wc, last->w2c);
    double growth = size * scale * (last->wc - weight_in(mid_p, last->bucket));
    return growth > HS_GROWTH_STILL_SIGMAS * sqrt(v_mid + v_last);
}

/* Fills *s for a bucket of ring r's newest point; 0 when it is no finding. The newest
 * point counts what a marking judged, the first everything that survived its GC: dead
 * objects not yet collected can only raise the first figure, so they can only hide growth,
 * never fake it. */
static int judge(const growth_ring *r, hs_growth_horizon h, bool whole, const growth_cell *last,
                 double size, double scale, hs_growth_site *s) {
    const growth_point *first_p = point_at(r, 0), *last_p = point_at(r, r->count - 1);
    const growth_cell *first = find_cell(first_p, last->bucket);
    double v_last = variance(size, scale, last->wc, last->w2c);
    double v_pre = variance(size, scale, last->w_pre, last->w2_pre);
    double v_first = first ? variance(size, scale, first->w, first->w2) : 0;
    double var = fmax(v_last - v_pre, 0) + fmax(v_first - v_pre, 0);
    *s = (hs_growth_site){
        .bucket = last->bucket,
        .horizon = h,
        .first_bytes = size * scale * weight_in(first_p, last->bucket),
        .last_bytes = size * scale * last->wc,
        .first_epoch = first_p->epoch,
        .last_epoch = last_p->epoch,
        .first_nanos = first_p->time_nanos,
        .last_nanos = last_p->time_nanos,
        .samples = last->nc,
        .per_gc = h == HS_HORIZON_GCS,
    };
    s->growth_bytes = s->last_bytes - s->first_bytes;
    s->growth_sigma = sqrt(var);
    if (!(s->growth_bytes > 0) || s->growth_bytes <= HS_GROWTH_SIGMAS * s->growth_sigma) return 0;
    if (!whole && !still_growing(r, h, last, size, scale)) return 0;
    slopes(r, last->bucket, size * scale, s);
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

/* The bucket's finding at the horizon where it is most significant; 0 when none. */
static int best_finding(const hs_growth *g, bool whole, uint32_t bucket, double size, double scale,
                        hs_growth_site *best) {
    int found = 0;
    for (int h = 0; h < HS_GROWTH_HORIZONS; h++) {
        const growth_ring *r = &g->horizon[h];
        if (r->count < 2) continue;
        const growth_cell *last = find_cell(point_at(r, r->count - 1), bucket);
        hs_growth_site s;
        if (!last || !judge(r, (hs_growth_horizon)h, whole, last, size, scale, &s)) continue;
        if (!found || z_of(&s) > z_of(best)) *best = s;
        found = 1;
    }
    return found;
}

uint32_t hs_growth_rank(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                        hs_growth_site *out, uint32_t max) {
    return hs_growth_rank_at(g, false, bucket_info, ctx, out, max);
}

uint32_t hs_growth_rank_at(const hs_growth *g, bool heap_exhausted, hs_growth_bucket_fn bucket_info,
                           void *ctx, hs_growth_site *out, uint32_t max) {
    uint32_t n = 0;
    const growth_ring *gcs = &g->horizon[HS_HORIZON_GCS];
    if (gcs->count < 1 || max == 0) return 0;
    /* Every horizon's newest point is the newest record: its sites are all candidates. */
    const growth_point *last = point_at(gcs, gcs->count - 1);
    for (uint32_t i = 0; i < last->ncells; i++) {
        double size = 0, scale = 0;
        hs_growth_site s;
        if (!bucket_info(last->cells[i].bucket, &size, &scale, ctx)) continue;
        if (best_finding(g, heap_exhausted, last->cells[i].bucket, size, scale, &s))
            insert_ranked(out, &n, max, &s);
    }
    return n;
}

uint32_t hs_growth_rank_horizon(const hs_growth *g, hs_growth_horizon h,
                                hs_growth_bucket_fn bucket_info, void *ctx, hs_growth_site *out,
                                uint32_t max) {
    uint32_t n = 0;
    if (h >= HS_GROWTH_HORIZONS || g->horizon[h].count < 2 || max == 0) return 0;
    const growth_ring *r = &g->horizon[h];
    const growth_point *last = point_at(r, r->count - 1);
    for (uint32_t i = 0; i < last->ncells; i++) {
        double size = 0, scale = 0;
        hs_growth_site s;
        if (!bucket_info(last->cells[i].bucket, &size, &scale, ctx)) continue;
        if (judge(r, h, false, &last->cells[i], size, scale, &s)) insert_ranked(out, &n, max, &s);
    }
    return n;
}

bool hs_growth_suspect(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                       uint32_t bucket, hs_growth_site *out) {
    double size = 0, scale = 0;
    hs_growth_site s;
    if (!bucket_info(bucket, &size, &scale, ctx) || !best_finding(g, false, bucket, size, scale, &s))
        return false;
    if (out) *out = s;
    return true;
}
