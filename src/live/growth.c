/* growth.c: per-GC in-use records per site, and the ranking of growing sites (see
 * growth.h for the estimates and their errors). */
#include "growth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t bucket, n;
    double w, w2;         /* sum of weights, of squared weights */
    double w_pre, w2_pre; /* the same over samples allocated before the window */
} growth_cell;

typedef struct {
    uint32_t epoch;
    int64_t time_nanos;
    growth_cell *cells; /* sorted by bucket */
    uint32_t ncells;
} growth_record;

struct hs_growth {
    growth_record ring[HS_GROWTH_WINDOW];
    uint32_t next, count;
    /* the record being built: dense per bucket, with the list of buckets touched */
    growth_cell *scratch;
    uint32_t scratch_cap;
    uint32_t *touched;
    uint32_t ntouched, touched_cap;
    uint32_t epoch, pre_epoch;
    int64_t time_nanos;
    int failed;
    int64_t walk_nanos;
    uint32_t walk_entries;
};

hs_growth *hs_growth_create(void) { return calloc(1, sizeof(hs_growth)); }

void hs_growth_destroy(hs_growth *g) {
    if (!g) return;
    for (uint32_t i = 0; i < HS_GROWTH_WINDOW; i++) free(g->ring[i].cells);
    free(g->scratch);
    free(g->touched);
    free(g);
}

static const growth_record *record_at(const hs_growth *g, uint32_t i) { /* 0 = oldest */
    return &g->ring[(g->next + HS_GROWTH_WINDOW - g->count + i) % HS_GROWTH_WINDOW];
}

void hs_growth_begin(hs_growth *g, uint32_t epoch, int64_t time_nanos) {
    g->epoch = epoch;
    g->time_nanos = time_nanos;
    g->failed = 0;
    g->ntouched = 0;
    /* The window's first GC once this record is in: the oldest record, or the second
     * oldest when this one pushes the oldest out. */
    if (g->count == 0) g->pre_epoch = epoch;
    else g->pre_epoch = record_at(g, g->count == HS_GROWTH_WINDOW ? 1 : 0)->epoch;
}

static int grow(void **array, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap) return 0;
    uint64_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    if (n > UINT32_MAX) return -1;
    void *p = realloc(*array, (size_t)n * elem);
    if (!p) return -1;
    if (elem == sizeof(growth_cell)) /* new cells start empty */
        memset((char *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
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
    growth_cell *c = &g->scratch[bucket];
    if (c->n == 0) g->touched[g->ntouched++] = bucket;
    c->n++;
    c->w += weight;
    c->w2 += weight * weight;
    if (alloc_epoch < g->pre_epoch) {
        c->w_pre += weight;
        c->w2_pre += weight * weight;
    }
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int hs_growth_end(hs_growth *g) {
    growth_cell *cells = g->failed ? NULL : malloc(((size_t)g->ntouched + 1) * sizeof *cells);
    if (g->ntouched > 0) /* touched may still be NULL: qsort must not see it */
        qsort(g->touched, g->ntouched, sizeof *g->touched, compare_u32);
    for (uint32_t i = 0; i < g->ntouched; i++) {
        growth_cell *c = &g->scratch[g->touched[i]];
        if (cells) {
            cells[i] = *c;
            cells[i].bucket = g->touched[i];
        }
        *c = (growth_cell){0};
    }
    if (!cells) return -1;
    growth_record *r = &g->ring[g->next];
    free(r->cells);
    *r = (growth_record){g->epoch, g->time_nanos, cells, g->ntouched};
    g->next = (g->next + 1) % HS_GROWTH_WINDOW;
    if (g->count < HS_GROWTH_WINDOW) g->count++;
    return 0;
}

uint32_t hs_growth_records(const hs_growth *g) { return g->count; }

void hs_growth_note_walk(hs_growth *g, int64_t nanos, uint32_t entries) {
    g->walk_nanos = nanos;
    g->walk_entries = entries;
}

void hs_growth_last_walk(const hs_growth *g, int64_t *nanos, uint32_t *entries) {
    *nanos = g->walk_nanos;
    *entries = g->walk_entries;
}

static const growth_cell *find_cell(const growth_record *r, uint32_t bucket) {
    uint32_t lo = 0, hi = r->ncells;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->cells[mid].bucket < bucket) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->ncells && r->cells[lo].bucket == bucket ? &r->cells[lo] : NULL;
}

/* Variance estimate of size * scale * sum(w) from sum(w) and sum(w^2): sum W (W - 1). */
static double variance(double size, double scale, double w, double w2) {
    double v = size * size * (scale * scale * w2 - scale * w);
    return v > 0 ? v : 0;
}

static double bytes_in(const growth_record *r, uint32_t bucket, double size, double scale) {
    const growth_cell *c = find_cell(r, bucket);
    return c ? size * scale * c->w : 0;
}

/* Least-squares slope of the site's estimate over the epochs of every record. */
static double slope(const hs_growth *g, uint32_t bucket, double size, double scale) {
    double n = g->count, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (uint32_t i = 0; i < g->count; i++) {
        const growth_record *r = record_at(g, i);
        double x = (double)(r->epoch - record_at(g, 0)->epoch);
        double y = bytes_in(r, bucket, size, scale);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    double den = n * sxx - sx * sx;
    return den > 0 ? (n * sxy - sx * sy) / den : 0;
}

/* Fills *s for a bucket of the newest record; 0 when it is no finding. */
static int judge(const hs_growth *g, const growth_cell *last, double size, double scale,
                 hs_growth_site *s) {
    const growth_record *first_r = record_at(g, 0), *last_r = record_at(g, g->count - 1);
    const growth_cell *first = find_cell(first_r, last->bucket);
    double v_last = variance(size, scale, last->w, last->w2);
    double v_pre = variance(size, scale, last->w_pre, last->w2_pre);
    double v_first = first ? variance(size, scale, first->w, first->w2) : 0;
    double var = fmax(v_last - v_pre, 0) + fmax(v_first - v_pre, 0);
    *s = (hs_growth_site){
        .bucket = last->bucket,
        .first_bytes = first ? size * scale * first->w : 0,
        .last_bytes = size * scale * last->w,
        .first_epoch = first_r->epoch,
        .last_epoch = last_r->epoch,
        .samples = last->n,
    };
    s->growth_bytes = s->last_bytes - s->first_bytes;
    s->growth_sigma = sqrt(var);
    if (!(s->growth_bytes > 0) || s->growth_bytes <= HS_GROWTH_SIGMAS * s->growth_sigma) return 0;
    s->slope_bytes_per_gc = slope(g, last->bucket, size, scale);
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

uint32_t hs_growth_rank(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                        hs_growth_site *out, uint32_t max) {
    uint32_t n = 0;
    if (g->count < 2 || max == 0) return 0;
    const growth_record *last = record_at(g, g->count - 1);
    for (uint32_t i = 0; i < last->ncells; i++) {
        double size = 0, scale = 0;
        hs_growth_site s;
        if (!bucket_info(last->cells[i].bucket, &size, &scale, ctx)) continue;
        if (judge(g, &last->cells[i], size, scale, &s)) insert_ranked(out, &n, max, &s);
    }
    return n;
}
