/* ingest_shape.c: a profile made acceptable to an ingester (see ingest_shape.h). */
#include "export/ingest_shape.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/live_age.h"
#include "base/utf8.h"

hs_ingest_limits hs_ingest_default_limits(void) {
    return (hs_ingest_limits){.max_samples = HS_INGEST_MAX_SAMPLES,
                              .max_depth = HS_INGEST_MAX_DEPTH};
}

const char *hs_ingest_age_bucket(int64_t floor, char *out, size_t len) {
    int64_t top = hs_age_bucket_floor(HS_AGE_BUCKETS - 1);
    if (floor >= top) snprintf(out, len, "%lld+", (long long)top);
    else if (floor <= 1) snprintf(out, len, "1");
    else snprintf(out, len, "%lld-%lld", (long long)floor, (long long)(2 * floor - 1));
    return out;
}

/* --- strings --------------------------------------------------------------------------------- */

/* s as the ingester takes it: valid UTF-8 (the profile converts on copy), at most
 * HS_INGEST_NAME_MAX bytes, cut before a continuation byte. Uses buf when it must cut. */
static const char *fit(const char *s, char *buf, size_t len, hs_ingest_shaping *what) {
    if (!s) return NULL;
    size_t n = strlen(s);
    bool valid = hs_utf8_valid(s);
    if (valid && n <= HS_INGEST_NAME_MAX) return s;
    what->fixed_strings++;
    if (n <= HS_INGEST_NAME_MAX) return s; /* hs_profile_add_* convert it */
    size_t cut = HS_INGEST_NAME_MAX < len - 1 ? HS_INGEST_NAME_MAX : len - 1;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
    memcpy(buf, s, cut);
    buf[cut] = '\0';
    return buf;
}

/* A sample type name without '-'. */
static void type_name(const char *in, char *out, size_t len) {
    snprintf(out, len, "%s", in ? in : "");
    for (char *c = out; *c; c++)
        if (*c == '-') *c = '_';
}

/* --- header, functions, locations ------------------------------------------------------------- */

static int copy_header(const hs_profile *in, hs_profile *out) {
    char type[256], unit[256];
    for (uint32_t i = 0; i < in->nsample_types; i++) {
        type_name(in->sample_types[i].type, type, sizeof type);
        type_name(in->sample_types[i].unit, unit, sizeof unit);
        if (hs_profile_add_sample_type(out, type, unit) < 0) return -1;
    }
    if (in->default_sample_type) {
        type_name(in->default_sample_type, type, sizeof type);
        if (hs_profile_set_default_sample_type(out, type) != 0) return -1;
    }
    type_name(in->period_type.type, type, sizeof type);
    type_name(in->period_type.unit, unit, sizeof unit);
    if (in->period_type.type && hs_profile_set_period(out, type, unit, in->period) != 0) return -1;
    out->time_nanos = in->time_nanos;
    out->duration_nanos = in->duration_nanos;
    return 0;
}

/* Copies functions and locations; loc_map[i] = the copy of in's location i. */
static int copy_frames(const hs_profile *in, hs_profile *out, uint32_t *loc_map,
                       hs_ingest_shaping *what) {
    char a[HS_INGEST_NAME_MAX + 1], b[HS_INGEST_NAME_MAX + 1], c[HS_INGEST_NAME_MAX + 1];
    for (uint32_t i = 0; i < in->nfunctions; i++) {
        const hs_function *f = &in->functions[i];
        if (hs_profile_add_function(out, fit(f->name, a, sizeof a, what),
                                    fit(f->system_name, b, sizeof b, what),
                                    fit(f->filename, c, sizeof c, what),
                                    f->start_line) == UINT32_MAX)
            return -1;
    }
    for (uint32_t i = 0; i < in->nlocations; i++) {
        loc_map[i] = hs_profile_add_location(out, in->locations[i].function, in->locations[i].line);
        if (loc_map[i] == UINT32_MAX) return -1;
    }
    return 0;
}

/* A pseudo-frame (a function named name, line 0). UINT32_MAX on ENOMEM. */
static uint32_t pseudo_frame(hs_profile *out, const char *name) {
    uint32_t f = hs_profile_add_function(out, name, name, "", 0);
    return f == UINT32_MAX ? f : hs_profile_add_location(out, f, 0);
}

/* --- which samples are folded ---------------------------------------------------------------- */

/* A sample and its weight (the sum of its bytes values), for the ranking. */
typedef struct {
    int64_t weight;
    uint32_t index;
} ranked;

static int by_weight_desc(const void *x, const void *y) {
    const ranked *a = x, *b = y;
    if (a->weight != b->weight) return a->weight > b->weight ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int64_t sample_weight(const hs_profile *p, const hs_sample *s) {
    int64_t bytes = 0, all = 0;
    for (uint32_t t = 0; t < p->nsample_types; t++) {
        all += s->values[t];
        if (p->sample_types[t].unit && strcmp(p->sample_types[t].unit, "bytes") == 0)
            bytes += s->values[t];
    }
    return bytes ? bytes : all;
}

static uint32_t leaf(const hs_sample *s) { return s->depth ? s->locations[0] : UINT32_MAX; }

/* Distinct leaf locations among order[from..n) (seen: nlocations + 1 bytes, cleared). */
static uint32_t distinct_leaves(const hs_profile *in, const uint32_t *order, uint32_t from,
                                uint32_t n, uint8_t *seen) {
    uint32_t count = 0;
    memset(seen, 0, (size_t)in->nlocations + 1);
    for (uint32_t k = from; k < n; k++) {
        uint32_t l = leaf(&in->samples[order[k]]);
        uint32_t slot = l == UINT32_MAX ? in->nlocations : l;
        if (!seen[slot]) {
            seen[slot] = 1;
            count++;
        }
    }
    return count;
}

/* How many of the heaviest samples are kept so that they and one folded sample per class
 * of the rest fit in max. *one_group: the classes alone do not fit (everything folded into
 * a single sample). */
static uint32_t samples_kept(const hs_profile *in, const uint32_t *order, uint32_t max,
                             uint8_t *seen, bool *one_group) {
    uint32_t n = in->nsamples, keep = max - 1;
    *one_group = false;
    for (;;) {
        uint32_t classes = distinct_leaves(in, order, keep, n, seen);
        if (keep + classes <= max) return keep;
        if (classes >= max) {
            *one_group = true;
            return max - 1;
        }
        keep = max - classes;
    }
}

/* --- samples --------------------------------------------------------------------------------- */

/* Copies one sample (mapped, truncated at max_depth, its labels made ingestible). */
static int copy_sample(const hs_sample *s, hs_profile *out, const uint32_t *loc_map,
                       uint32_t max_depth, uint32_t truncated_loc, uint32_t *stack,
                       hs_ingest_shaping *what) {
    uint32_t depth = s->depth;
    if (depth > max_depth) {
        depth = max_depth;
        what->truncated++;
    }
    for (uint32_t k = 0; k < depth; k++) stack[k] = loc_map[s->locations[k]];
    if (depth < s->depth) stack[depth - 1] = truncated_loc;
    if (hs_profile_add_sample(out, stack, depth, s->values, 0) != 0) return -1;
    hs_sample *copy = &out->samples[out->nsamples - 1];
    copy->liveness = s->liveness;
    if (s->object_size > 0) what->dropped_labels++;
    if (s->ages.age_seconds >= 0) what->dropped_labels++;
    if (s->label_key) what->dropped_labels++;
    if (s->ages.gc_age > 0) {
        char bucket[32];
        return hs_profile_label_samples(out, out->nsamples - 1, "gc_age",
                                        hs_ingest_age_bucket(s->ages.gc_age, bucket, sizeof bucket));
    }
    return 0;
}

/* One folded sample per class (per the whole rest when one_group) of order[from..n). */
static int fold(const hs_profile *in, hs_profile *out, const uint32_t *order, uint32_t from,
                const uint32_t *loc_map, bool one_group, hs_ingest_shaping *what) {
    uint32_t other = pseudo_frame(out, HS_INGEST_OTHER_SITES);
    if (other == UINT32_MAX) return -1;
    uint32_t n = in->nsamples;
    uint8_t *done = calloc(n, 1);
    if (!done) return -1;
    int rc = 0;
    for (uint32_t k = from; k < n && rc == 0; k++) {
        if (done[k]) continue;
        const hs_sample *first = &in->samples[order[k]];
        int64_t sum[HS_PROFILE_MAX_VALUES] = {0};
        for (uint32_t m = k; m < n; m++) {
            const hs_sample *s = &in->samples[order[m]];
            if (done[m] || (!one_group && leaf(s) != leaf(first))) continue;
            done[m] = 1;
            what->folded_samples++;
            for (uint32_t t = 0; t < in->nsample_types; t++) sum[t] += s->values[t];
        }
        uint32_t stack[2] = {leaf(first) == UINT32_MAX ? other : loc_map[leaf(first)], other};
        uint32_t depth = one_group || leaf(first) == UINT32_MAX ? 1 : 2;
        if (one_group) stack[0] = other;
        rc = hs_profile_add_sample(out, stack, depth, sum, 0);
        what->other_samples++;
    }
    free(done);
    return rc;
}

static int copy_samples(const hs_profile *in, hs_profile *out, const hs_ingest_limits *lim,
                        const uint32_t *loc_map, hs_ingest_shaping *what) {
    uint32_t n = in->nsamples, max_depth = 0;
    for (uint32_t i = 0; i < n; i++)
        if (in->samples[i].depth > max_depth) max_depth = in->samples[i].depth;
    uint32_t truncated_loc = 0;
    if (max_depth > lim->max_depth &&
        (truncated_loc = pseudo_frame(out, HS_INGEST_TRUNCATED)) == UINT32_MAX)
        return -1;
    uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
    uint32_t *stack = malloc(((size_t)lim->max_depth + 1) * sizeof *stack);
    ranked *rank = malloc(((size_t)n + 1) * sizeof *rank);
    uint8_t *seen = malloc((size_t)in->nlocations + 1);
    int rc = order && stack && rank && seen ? 0 : -1;
    uint32_t keep = n;
    bool one_group = false;
    if (rc == 0) {
        for (uint32_t i = 0; i < n; i++)
            rank[i] = (ranked){sample_weight(in, &in->samples[i]), i};
        if (n > lim->max_samples) qsort(rank, n, sizeof *rank, by_weight_desc);
        for (uint32_t i = 0; i < n; i++) order[i] = rank[i].index;
        if (n > lim->max_samples) keep = samples_kept(in, order, lim->max_samples, seen, &one_group);
    }
    for (uint32_t k = 0; k < keep && rc == 0; k++)
        rc = copy_sample(&in->samples[order[k]], out, loc_map, lim->max_depth, truncated_loc,
                         stack, what);
    if (rc == 0 && keep < n) rc = fold(in, out, order, keep, loc_map, one_group, what);
    free(order);
    free(stack);
    free(rank);
    free(seen);
    return rc;
}

/* --- comments -------------------------------------------------------------------------------- */

static int copy_comments(const hs_profile *in, hs_profile *out, const hs_ingest_limits *lim,
                         const hs_ingest_shaping *w) {
    int rc = 0;
    for (uint32_t i = 0; i < in->ncomments && rc == 0; i++)
        rc = hs_profile_add_comment(out, "%s", in->comments[i]);
    if (rc == 0 && w->folded_samples)
        rc = hs_profile_add_comment(out, "shaped for ingest: the %u smallest samples are folded "
                                    "into %u '" HS_INGEST_OTHER_SITES "' samples (one per allocated "
                                    "class) to stay within %u samples; totals are unchanged",
                                    w->folded_samples, w->other_samples, lim->max_samples);
    if (rc == 0 && w->truncated)
        rc = hs_profile_add_comment(out, "shaped for ingest: %u stacks deeper than %u frames are "
                                    "cut at the root ('" HS_INGEST_TRUNCATED "')",
                                    w->truncated, lim->max_depth);
    if (rc == 0 && w->dropped_labels)
        rc = hs_profile_add_comment(out, "shaped for ingest: numeric labels (bytes, age_seconds) "
                                    "and per-thread labels are dropped; gc_age is a string "
                                    "bucket (1, 2-3, ..., 128+)");
    if (rc == 0 && w->fixed_strings)
        rc = hs_profile_add_comment(out, "shaped for ingest: %u names made valid UTF-8 or cut "
                                    "to %d bytes", w->fixed_strings, HS_INGEST_NAME_MAX);
    return rc;
}

hs_profile *hs_ingest_shape(const hs_profile *in, const hs_ingest_limits *limits,
                            hs_ingest_shaping *what) {
    hs_ingest_shaping local = {0};
    hs_ingest_shaping *w = what ? what : &local;
    *w = (hs_ingest_shaping){0};
    hs_ingest_limits lim = *limits;
    if (lim.max_samples < 2) lim.max_samples = 2;
    if (lim.max_depth < 2) lim.max_depth = 2;
    hs_profile *out = hs_profile_new();
    uint32_t *loc_map = malloc(((size_t)in->nlocations + 1) * sizeof *loc_map);
    int rc = out && loc_map ? 0 : -1;
    if (rc == 0) rc = copy_header(in, out);
    if (rc == 0) rc = copy_frames(in, out, loc_map, w);
    if (rc == 0) rc = copy_samples(in, out, &lim, loc_map, w);
    if (rc == 0) rc = copy_comments(in, out, &lim, w);
    free(loc_map);
    if (rc != 0 || (out && out->failed)) {
        hs_profile_free(out);
        return NULL;
    }
    return out;
}
