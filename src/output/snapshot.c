/* snapshot.c: builds an hs_profile from the agent's tables (see snapshot.h).
 *
 * Frames become pprof Functions (one per resolved method) and Locations (one per
 * method and line). The allocated class is a leaf pseudo-frame, so flame graphs and
 * `pprof -top` show what was allocated where. Values are unbiased per bucket: all
 * samples of a bucket have one object size s, so scale = 1 / (1 - exp(-s/interval)). */
#include "output/snapshot.h"

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampling/estimate.h"
#include "live/inuse_basis.h"
#include "live/live_age.h"
#include "base/log.h"
#include "output/file_output.h"
#include "base/wall_clock.h"
#include "live/live_tracker.h"
#include "live/liveness.h"
#include "live/sweep_pace.h"
#include "sampling/overflow.h"
#include "sampling/ptr_map.h"
#include "sampling/sample_table.h"
#include "sampling/sampler_bias.h"
#include "sampling/stack_store.h"
#include "live/suspects.h"
#include "sampling/survival.h"
#include "sampling/symbols.h"
#include "sampling/throttle.h"
#include "sampling/thread_names.h"

/* Above this share of allocated bytes under [truncated], the dump warns on stderr. */
#define HS_TRUNCATION_WARN_SHARE 0.05

typedef struct {
    const hs_snapshot_source *src;
    hs_profile *profile;
    hs_ptr_map *function_of_method; /* hs_method_info* -> function index + 1 */
    uint32_t *function_of_class;    /* class id -> function index + 1 */
    uint32_t nclasses;              /* class ids 1..nclasses have a cache entry */
    uint32_t unknown_function;      /* index + 1 of "[unknown]" (a class), 0 until needed */
    uint32_t truncated_function;    /* index + 1 of "[truncated]", 0 until needed */
    uint32_t no_frames_function;    /* index + 1 of "[no Java frames]", 0 until needed */
    uint32_t folded_function;       /* index + 1 of "[stack table full]", 0 until needed */
    uint32_t *locations;            /* scratch: one sample's location indexes */
    int64_t alloc_bytes;            /* alloc_space of every bucket written */
    int64_t truncated_bytes;        /* of which stacks cut at depth= */
    hs_live_amount *inuse;          /* per bucket, NULL without live tracking */
    double *inuse_var;              /* per bucket: variance of inuse bytes (the report's ±) */
    const hs_snapshot_request *req; /* never NULL (a default one for plain snapshots) */
    hs_age_site *ages;              /* per bucket (live_age.h), NULL without live tracking */
    /* per bucket: live weight, the part of it (and of ages) a marking judged (liveness.h) */
    double *live_weight, *confirmed_weight;
    hs_age_site *confirmed_ages;
    double rate_scale;              /* rate cap: offered / weights handed out (throttle.h) */
    uint32_t note_at;               /* where the in-use basis note goes (after `what`) */
    hs_inuse_basis inuse_basis;     /* what the in-use values stand for (inuse_basis.h) */
} builder;

/* A function for a name that is not a Java method ([unknown], a class, [truncated]). */
static uint32_t pseudo_function(builder *b, uint32_t *cache, const char *name) {
    if (*cache == 0) {
        uint32_t f = hs_profile_add_function(b->profile, name, name, "", 0);
        *cache = f == UINT32_MAX ? 0 : f + 1;
    }
    return *cache ? *cache - 1 : UINT32_MAX;
}

/* The location of a pseudo-function (no line). */
static uint32_t pseudo_location(builder *b, uint32_t *cache, const char *name) {
    uint32_t f = pseudo_function(b, cache, name);
    return f == UINT32_MAX ? f : hs_profile_add_location(b->profile, f, 0);
}

static uint32_t function_for_method(builder *b, const hs_method_info *m) {
    uintptr_t cached = (uintptr_t)hs_ptr_map_get(b->function_of_method, (uintptr_t)m);
    if (cached) return (uint32_t)cached - 1;
    uint32_t f = hs_profile_add_function(b->profile, m->name, m->system_name, m->filename,
                                         m->start_line);
    if (f != UINT32_MAX) hs_ptr_map_put_if_absent(b->function_of_method, (uintptr_t)m,
                                                  (void *)(uintptr_t)(f + 1));
    return f;
}

static uint32_t location_for_class(builder *b, uint32_t class_id) {
    const char *name = hs_symbols_class_name(b->src->sampled.symbols, class_id);
    uint32_t uncached = 0; /* a class registered after the snapshot started */
    uint32_t *cache = !name                    ? &b->unknown_function
                      : class_id <= b->nclasses ? &b->function_of_class[class_id]
                                                : &uncached;
    uint32_t f = pseudo_function(b, cache, name ? name : "[unknown]");
    return f == UINT32_MAX ? f : hs_profile_add_location(b->profile, f, 0);
}

static uint32_t location_for_frame(builder *b, const hs_frame *frame) {
    const hs_method_info *m = hs_symbols_frame_method(frame);
    uint32_t f = function_for_method(b, m);
    int32_t line = hs_line_for_bci(m->lines, m->nlines, frame->bci);
    return f == UINT32_MAX ? f : hs_profile_add_location(b->profile, f, line);
}

/* Fills b->locations for a bucket, leaf first: class, frames, then [truncated] for a cut
 * stack or [no Java frames] for an empty one. Returns the depth. */
static uint32_t bucket_locations(builder *b, const hs_bucket_key *key, bool *cut) {
    uint32_t depth = 0, n = 0;
    bool truncated = false;
    if (key->stack_id == HS_STACK_FOLDED) { /* the sample's stack found no room */
        b->locations[n++] = location_for_class(b, key->class_id);
        b->locations[n++] = pseudo_location(b, &b->folded_function, HS_STACK_FOLDED_NAME);
        return b->locations[0] == UINT32_MAX || b->locations[1] == UINT32_MAX ? 0 : n;
    }
    const hs_frame *frames = hs_stack_store_get(b->src->sampled.stacks, key->stack_id, &depth, &truncated);
    *cut = truncated;
    if (!frames) return 0;
    b->locations[n++] = location_for_class(b, key->class_id);
    for (uint32_t i = 0; i < depth; i++) b->locations[n++] = location_for_frame(b, &frames[i]);
    if (truncated || depth == 0) {
        uint32_t f = truncated ? pseudo_function(b, &b->truncated_function, "[truncated]")
                               : pseudo_function(b, &b->no_frames_function, "[no Java frames]");
        b->locations[n++] = f == UINT32_MAX ? f : hs_profile_add_location(b->profile, f, 0);
    }
    for (uint32_t i = 0; i < n; i++)
        if (b->locations[i] == UINT32_MAX) return 0;
    return n;
}

/* The bucket's allocation weight in the request's period. */
static uint64_t period_weight(const hs_snapshot_request *req, uint32_t index, uint64_t table_fp) {
    uint64_t fp = req->alloc_fp ? req->alloc_fp[index] : table_fp;
    uint64_t base = req->base_fp ? req->base_fp[index] : 0;
    return fp > base ? fp - base : 0;
}

/* A bucket's unbiased allocation estimate in the request's period (rate-cap weights and
 * the dump's scale included), rounded as the profile reports it. */
static hs_live_amount alloc_of_weight(const builder *b, uint64_t weight_fp,
                                      const hs_bucket_snapshot *bucket, int64_t interval) {
    double objects = (double)weight_fp / (double)HS_WEIGHT_ONE * b->rate_scale *
                     hs_unbias_scale((double)bucket->key.size, interval);
    return (hs_live_amount){.objects = llround(objects),
                            .bytes = llround(objects * (double)bucket->key.size)};
}

static hs_live_amount bucket_alloc(const builder *b, uint32_t index,
                                   const hs_bucket_snapshot *bucket, int64_t interval) {
    return alloc_of_weight(b, period_weight(b->req, index, bucket->weight_fp), bucket, interval);
}

/* Under a collector that never collects, in use is what was allocated since the agent
 * started (inuse_basis.h): each bucket's whole-run allocation, whatever period the
 * profile's alloc values cover. */
static void inuse_is_allocated(builder *b, uint32_t nbuckets, hs_live_scale_summary *sum) {
    *sum = (hs_live_scale_summary){.factor = 1};
    for (uint32_t i = 1; i <= nbuckets; i++) {
        hs_bucket_snapshot bucket;
        if (hs_sample_table_get(b->src->sampled.samples, i, &bucket) != 0) continue;
        b->inuse[i] = alloc_of_weight(b, bucket.weight_fp, &bucket, b->src->sampled.interval);
        sum->total_bytes += b->inuse[i].bytes;
        sum->total_objects += b->inuse[i].objects;
    }
    sum->raw_bytes = (double)sum->total_bytes;
    sum->raw_objects = (double)sum->total_objects;
}

/* Caps every bucket's in-use at its allocation (Go's inuse <= alloc); see live_scale.h.
 * Only for a profile of the whole run: a periodic profile's allocation covers its period,
 * and objects allocated before it may well be in use. */
static int cap_inuse_to_alloc(builder *b, uint32_t nbuckets, hs_live_scale_summary *sum) {
    if (b->req->alloc_fp) return 0;
    hs_live_amount *alloc = calloc((size_t)nbuckets + 1, sizeof *alloc);
    if (!alloc) return -1;
    for (uint32_t i = 1; i <= nbuckets; i++) {
        hs_bucket_snapshot bucket;
        if (hs_sample_table_get(b->src->sampled.samples, i, &bucket) == 0)
            alloc[i] = bucket_alloc(b, i, &bucket, b->src->sampled.interval);
    }
    hs_live_cap_to_alloc(b->inuse, alloc, (size_t)nbuckets + 1, sum);
    free(alloc);
    return 0;
}

/* Labels liveness=value the samples first.. that carry in-use values. */
static void label_liveness(hs_profile *p, uint32_t first, const char *value) {
    for (uint32_t i = first; i < p->nsamples; i++)
        if (p->samples[i].values[HS_VALUE_INUSE_OBJECTS] || p->samples[i].values[HS_VALUE_INUSE_SPACE])
            p->samples[i].liveness = value;
}

static bool any_value(const int64_t v[4]) { return v[0] || v[1] || v[2] || v[3]; }

/* A site's values as its confirmed and its unjudged part (liveness.h), each split by age
 * (live_age.h) and its in-use samples labelled liveness=. */
static void add_split_site(builder *b, uint32_t index, uint32_t depth, const int64_t *values,
                           int64_t object_size) {
    double all = b->live_weight[index], confirmed = b->confirmed_weight[index];
    int64_t part_c[HS_PROFILE_MAX_VALUES] = {0}, part_u[HS_PROFILE_MAX_VALUES] = {0};
    hs_liveness_split(values, confirmed, all > confirmed ? all - confirmed : 0, part_c, part_u);
    hs_age_site unjudged = b->ages[index];
    const hs_age_site *c = &b->confirmed_ages[index];
    for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) {
        unjudged.weight[i] = fmax(unjudged.weight[i] - c->weight[i], 0);
        unjudged.seconds[i] = fmax(unjudged.seconds[i] - c->seconds[i], 0);
    }
    unjudged.unsplit_weight = fmax(unjudged.unsplit_weight - c->unsplit_weight, 0);
    unjudged.unsplit_seconds = fmax(unjudged.unsplit_seconds - c->unsplit_seconds, 0);
    uint32_t n = b->profile->nsample_types, first = b->profile->nsamples;
    if (any_value(part_c))
        hs_age_add_site(b->profile, b->locations, depth, part_c, n, object_size, c);
    label_liveness(b->profile, first, HS_LIVENESS_CONFIRMED);
    first = b->profile->nsamples;
    if (any_value(part_u))
        hs_age_add_site(b->profile, b->locations, depth, part_u, n, object_size, &unjudged);
    label_liveness(b->profile, first, HS_LIVENESS_UNJUDGED);
}

/* Shares a bucket's in-use variance among its samples first.. (its liveness and age
 * parts) by their in-use bytes: a site's rows add up to the bucket's variance. */
static void spread_variance(hs_profile *p, uint32_t first, double var) {
    double total = 0;
    for (uint32_t i = first; i < p->nsamples; i++)
        total += (double)p->samples[i].values[HS_VALUE_INUSE_SPACE];
    for (uint32_t i = first; total > 0 && i < p->nsamples; i++)
        p->samples[i].inuse_var = var * (double)p->samples[i].values[HS_VALUE_INUSE_SPACE] / total;
}

static void add_bucket(builder *b, uint32_t index, int64_t interval) {
    hs_bucket_snapshot bucket;
    if (hs_sample_table_get(b->src->sampled.samples, index, &bucket) != 0 || bucket.samples == 0) return;
    hs_live_amount alloc = bucket_alloc(b, index, &bucket, interval);
    int64_t values[HS_PROFILE_MAX_VALUES] = {0};
    values[HS_VALUE_ALLOC_OBJECTS] = alloc.objects;
    values[HS_VALUE_ALLOC_SPACE] = alloc.bytes;
    if (b->inuse) {
        values[HS_VALUE_INUSE_OBJECTS] = b->inuse[index].objects;
        values[HS_VALUE_INUSE_SPACE] = b->inuse[index].bytes;
    }
    /* A site with nothing in this period and nothing live would be an empty sample. */
    if (alloc.objects == 0 && values[HS_VALUE_INUSE_OBJECTS] == 0 &&
        values[HS_VALUE_INUSE_SPACE] == 0)
        return;
    bool truncated = false;
    uint32_t depth = bucket_locations(b, &bucket.key, &truncated);
    if (depth == 0) return;
    uint32_t first = b->profile->nsamples; /* the age split may add several samples */
    if (b->confirmed_weight)
        add_split_site(b, index, depth, values, (int64_t)bucket.key.size);
    else
        hs_age_add_site(b->profile, b->locations, depth, values, b->profile->nsample_types,
                        (int64_t)bucket.key.size, b->ages ? &b->ages[index] : NULL);
    if (b->inuse_var) spread_variance(b->profile, first, b->inuse_var[index]);
    if (bucket.key.thread_id) {
        const char *thread = hs_thread_names_get(b->src->thread_names, bucket.key.thread_id);
        hs_profile_label_samples(b->profile, first, "thread",
                                 thread ? thread : HS_THREAD_NAME_UNKNOWN);
    }
    b->alloc_bytes += alloc.bytes;
    if (truncated) b->truncated_bytes += alloc.bytes;
}

/* What was written, and how much of the allocation profile lost its roots to depth=: in
 * comments, and once per run on stderr when that is more than a few percent (the profile
 * then misleads). */
static void add_summary_comments(builder *b) {
    static atomic_bool warned;
    double share = b->alloc_bytes > 0 ? (double)b->truncated_bytes / (double)b->alloc_bytes : 0;
    int depth = b->src->depth;
    hs_profile_add_comment(b->profile,
                           "stacks written: %u (pprof samples: one per stack, allocated class%s "
                           "and object size, any pseudo-site included), from %llu samples recorded",
                           b->profile->nsamples, b->src->threads ? ", thread" : "",
                           (unsigned long long)hs_sample_table_samples(b->src->sampled.samples));
    hs_profile_add_comment(b->profile,
                           "truncated stacks: %.2f %% of allocated bytes (alloc_space) have stacks "
                           "deeper than depth=%d, cut under [truncated]",
                           100 * share, depth);
    if (share > HS_TRUNCATION_WARN_SHARE && !atomic_exchange(&warned, true))
        hs_warn("%.1f %% of sampled bytes have stacks deeper than depth=%d and were cut under "
                "[truncated]; raise depth= (up to 2048) to see their roots",
                100 * share, depth);
}

static void add_comment_line(void *profile, const char *line) {
    hs_profile_add_comment(profile, "%s", line);
}

static void add_comments(const hs_snapshot_source *src, hs_profile *p, double rate_scale) {
    char options[HS_PATH_MAX + 512];
    src->format_options(src->options, options, sizeof options);
    hs_counters *c = src->sampled.counters;
    hs_profile_add_comment(p, "heapsampler %s", HEAPSAMPLER_VERSION);
    hs_profile_add_comment(p, "options: %s", options);
    hs_profile_add_comment(p, "jvm: %s %s", src->vm_name, src->java_version);
    char start[40], end[40];
    hs_profile_add_comment(p, "period: %s to %s (UTC)", hs_format_utc(p->time_nanos, start, sizeof start),
                           hs_format_utc(p->time_nanos + p->duration_nanos, end, sizeof end));
    hs_profile_add_comment(p,
                           "samples recorded: %llu (allocations the JVM's sampler picked); "
                           "dropped: %llu (tables full); stack walks failed: %llu; samples whose "
                           "stack was cut at depth=%d: %llu",
                           (unsigned long long)hs_sample_table_samples(src->sampled.samples),
                           (unsigned long long)atomic_load(&c->dropped),
                           (unsigned long long)atomic_load(&c->stack_errors), src->depth,
                           (unsigned long long)atomic_load(&c->truncated));
    hs_profile_add_comment(p,
                           "alloc_objects/alloc_space are unbiased estimates: a sample of an "
                           "object of s bytes counts 1/(1-exp(-s/interval)) objects, times its "
                           "rate-cap weight");
    char bias[HS_SAMPLER_BIAS_NOTE_MAX];
    if (hs_sampler_bias_note_for(src->java_version, bias, sizeof bias) > 0)
        hs_profile_add_comment(p, "%s", bias);
    const hs_symbols *sym = src->sampled.symbols;
    hs_profile_add_comment(p,
                           "tables: %u stacks, %u buckets; symbols: %u methods, %u class "
                           "names, %u classes resident, %llu slots of unloaded classes reclaimed, "
                           "%llu samples of classes counted as %s",
                           hs_stack_store_count(src->sampled.stacks), hs_sample_table_count(src->sampled.samples),
                           hs_symbols_method_count(sym), hs_symbols_class_count(sym) - 1,
                           hs_symbols_class_resident(sym),
                           (unsigned long long)hs_symbols_class_reclaimed(sym),
                           (unsigned long long)hs_symbols_class_overflow(sym),
                           HS_CLASS_CACHE_FULL_NAME);
    hs_profile_add_comment(p,
                           "methods: %u resident (of loaded classes), %llu slots of unloaded "
                           "classes' methods reclaimed; %llu frames counted as %s",
                           hs_symbols_method_resident(sym),
                           (unsigned long long)hs_symbols_method_reclaimed(sym),
                           (unsigned long long)hs_symbols_method_overflow(sym),
                           HS_METHOD_TABLE_FULL_NAME);
    char losses[256];
    if (hs_symbols_describe_losses(sym, losses, sizeof losses))
        hs_profile_add_comment(p, "%s", losses);
    hs_profile_add_comment(p,
                           "arenas: %zu bytes of names, %zu bytes of stack frames (reserved in "
                           "1 MiB chunks, within memory=)",
                           hs_symbols_bytes(sym), hs_stack_store_frame_bytes(src->sampled.stacks));
    char overflow[512];
    if (hs_overflow_describe(src->overflow, hs_snapshot_samples_taken(src), overflow,
                             sizeof overflow))
        hs_profile_add_comment(p, "%s", overflow);
    hs_throttle_status_lines(src->throttle, hs_throttle_clock_nanos(), add_comment_line, p);
    char survival[512];
    hs_survival_format_status(src->survival, survival, sizeof survival);
    if (src->throttle) hs_profile_add_comment(p, "%s", survival);
    if (src->throttle)
        hs_profile_add_comment(p,
                               "rate cap: estimates multiplied by %.4f, samples offered over the "
                               "weights handed out (the deficit not yet carried into later weights)",
                               rate_scale);
}

/* Samples that found no bucket at all: one site with their unbiased totals (no liveness). */
static void add_spilled_sample(builder *b) {
    const hs_overflow *o = b->src->overflow;
    uint64_t objects_fp = atomic_load_explicit(&o->spilled_objects_fp, memory_order_relaxed);
    uint64_t bytes = atomic_load_explicit(&o->spilled_bytes, memory_order_relaxed);
    if (atomic_load_explicit(&o->spilled, memory_order_relaxed) == 0) return;
    uint32_t unused = 0;
    uint32_t loc = pseudo_location(b, &unused, HS_SPILLED_NAME);
    int64_t values[HS_PROFILE_MAX_VALUES] = {0};
    values[HS_VALUE_ALLOC_OBJECTS] = (int64_t)((objects_fp + HS_OVERFLOW_ONE / 2) / HS_OVERFLOW_ONE);
    values[HS_VALUE_ALLOC_SPACE] = (int64_t)bytes;
    if (b->inuse && b->inuse_basis == HS_INUSE_NEVER_COLLECTED) { /* still in the heap */
        values[HS_VALUE_INUSE_OBJECTS] = values[HS_VALUE_ALLOC_OBJECTS];
        values[HS_VALUE_INUSE_SPACE] = values[HS_VALUE_ALLOC_SPACE];
    }
    if (loc != UINT32_MAX) hs_profile_add_sample(b->profile, &loc, 1, values, 0);
}

uint64_t hs_snapshot_samples_taken(const hs_snapshot_source *src) {
    return hs_sample_table_samples(src->sampled.samples) +
           atomic_load_explicit(&src->overflow->spilled, memory_order_relaxed);
}

/* The sample type named first by default if the profile has it. */
static const char *default_type(int live, const hs_snapshot_request *req) {
    if (req->default_type && (live || strncmp(req->default_type, "alloc_", 6) == 0))
        return req->default_type;
    return live ? "inuse_space" : "alloc_space";
}

static int set_header(const hs_snapshot_source *src, hs_profile *p, int live, const hs_snapshot_request *req) {
    int ok = hs_profile_add_sample_type(p, "alloc_objects", "count") >= 0 &&
             hs_profile_add_sample_type(p, "alloc_space", "bytes") >= 0 &&
             (!live || (hs_profile_add_sample_type(p, "inuse_objects", "count") >= 0 &&
                        hs_profile_add_sample_type(p, "inuse_space", "bytes") >= 0)) &&
             hs_profile_set_default_sample_type(p, default_type(live, req)) == 0 &&
             hs_profile_set_period(p, "space", "bytes", src->sampled.interval) == 0;
    bool whole_run = req->time_nanos == 0;
    p->time_nanos = whole_run ? src->start_nanos : req->time_nanos;
    p->duration_nanos = whole_run ? hs_wall_nanos() - src->start_nanos : req->duration_nanos;
    if (req->what) hs_profile_add_comment(p, "%s", req->what);
    return ok ? 0 : -1;
}

/* Objects one unit of a bucket's live weight stands for: the unbias scale, the rate cap's
 * scale and the untracked samples' correction. */
static double weight_unit(const hs_snapshot_source *src, const hs_bucket_snapshot *bucket,
                          double rate_scale) {
    return hs_untracked_correction(bucket->weight_fp, bucket->untracked_fp) * rate_scale *
           hs_unbias_scale((double)bucket->key.size, src->sampled.interval);
}

/* Per-bucket unbiased live estimates from the tracked samples' weights. */
static hs_live_estimate *live_estimates(const hs_snapshot_source *src, const hs_live_view *view,
                                        double rate_scale) {
    hs_live_estimate *est = calloc((size_t)view->nbuckets + 1, sizeof *est);
    for (uint32_t i = 1; est && i <= view->nbuckets; i++) {
        hs_bucket_snapshot bucket;
        if (view->live_weight[i] <= 0 || hs_sample_table_get(src->sampled.samples, i, &bucket) != 0)
            continue;
        est[i].objects = view->live_weight[i] * weight_unit(src, &bucket, rate_scale);
        est[i].bytes = est[i].objects * (double)bucket.key.size;
    }
    return est;
}

/* Per bucket, the variance of its in-use bytes as the profile reports them: the exact
 * Horvitz-Thompson estimate over its tracked samples' weights (estimate.h), times the
 * square of what scaling and the cap to allocation did to the estimate. */
static double *inuse_variances(const hs_snapshot_source *src, const hs_live_view *view,
                               const hs_live_estimate *est, const hs_live_amount *inuse,
                               double rate_scale) {
    double *var = calloc((size_t)view->nbuckets + 1, sizeof *var);
    for (uint32_t i = 1; var && i <= view->nbuckets; i++) {
        hs_bucket_snapshot bucket;
        if (!(est[i].bytes > 0) || hs_sample_table_get(src->sampled.samples, i, &bucket) != 0) continue;
        double ratio = (double)inuse[i].bytes / est[i].bytes;
        var[i] = hs_ht_variance((double)bucket.key.size, weight_unit(src, &bucket, rate_scale),
                                view->live_weight[i], view->live_weight2[i]) * ratio * ratio;
    }
    return var;
}

/* Unbiased live bytes of the samples a marking judged (before any scaling). */
static double confirmed_bytes(const hs_live_view *view, const hs_live_estimate *est) {
    double bytes = 0;
    for (uint32_t i = 1; i <= view->nbuckets; i++)
        if (view->live_weight[i] > 0)
            bytes += est[i].bytes * fmin(view->confirmed_weight[i] / view->live_weight[i], 1);
    return bytes;
}

/* Which GC each part of the in-use view comes from (liveness.h). */
static void add_liveness_comment(hs_profile *p, const hs_live_view *view,
                                 const hs_live_scale_summary *sum, double confirmed) {
    const hs_liveness_state *l = &view->liveness;
    char when[80] = ""; /* ": forced collection (gc=1), at GC epoch 4294967295" fits */
    if (l->markings > 0)
        snprintf(when, sizeof when, ": %s, at GC epoch %u", hs_marking_kind_name(l->last_kind),
                 l->last_epoch);
    hs_profile_add_comment(
        p,
        "liveness: in-use samples carry the label liveness=confirmed (allocated before GC "
        "epoch %u and survived the last complete marking%s, %u markings seen: live as of that "
        "marking; a G1 marking also counts what was allocated while it ran) or "
        "liveness=unjudged (allocated since: the young collections found them live, no "
        "marking has judged them, promoted ones may be dead); unbiased estimate "
        "before scaling: %.0f bytes confirmed, %.0f unjudged; growth and suspects compare the "
        "confirmed figure now with what survived earlier%s",
        l->judged_before, l->markings ? when : " (none yet)", l->markings, confirmed,
        fmax(sum->raw_bytes - confirmed, 0),
        view->liveness_supported
            ? ""
            : "; but this collector's complete markings cannot be told (only G1, Parallel and "
              "Serial move the counters read): growth and suspects use every in-use sample, "
              "dead promoted objects included; dump,gc=1 forces a collection that judges them");
}

static void add_live_comments(hs_profile *p, const hs_live_view *view,
                              const hs_live_scale_summary *sum, hs_live_scale mode,
                              uint64_t untracked, double confirmed) {
    hs_profile_add_comment(p, "gc: %s; heap used after last GC: %s%llu bytes (source %s)",
                           view->gc_name ? view->gc_name : "unknown",
                           view->heap.valid ? "" : "unknown, ",
                           (unsigned long long)(view->heap.valid ? view->heap.used_bytes : 0),
                           view->heap.source ? view->heap.source : "none");
    char as_of[96];
    if (view->inuse_basis == HS_INUSE_NEVER_COLLECTED)
        snprintf(as_of, sizeof as_of, "allocated since the agent started (no GC: see the first "
                                      "comments)");
    else
        snprintf(as_of, sizeof as_of, "as of the last GC (epoch %u)", view->epoch);
    hs_profile_add_comment(p,
                           "inuse: %s; unbiased live estimate %.0f bytes, "
                           "%.0f objects; live_scale=%s factor %.4f; %llu bytes not attributed to "
                           "samples%s; %llu bytes taken off sites to keep each site's in-use at "
                           "most its allocation",
                           as_of, sum->raw_bytes, sum->raw_objects,
                           mode == HS_SCALE_PROPORTIONAL ? "proportional" : "residual",
                           sum->factor, (unsigned long long)sum->residual_bytes,
                           view->heap.valid ? "" : " (heap unknown: estimates are unscaled)",
                           (unsigned long long)sum->capped_bytes);
    hs_profile_add_comment(p,
                           "live tracking: %u entries (sampled objects followed at this dump), "
                           "thinning level %u (1 in %llu samples tracked, each counting for "
                           "that many); %llu samples found no room and were extrapolated from "
                           "their site's tracked samples; %llu sweeps of the table after GCs "
                           "(when GCs come faster than one per %d ms, a GC waits up to that "
                           "long for the next sweep, unless it completed a marking)",
                           view->tracked, view->level, 1ULL << view->level,
                           (unsigned long long)untracked, (unsigned long long)view->sweeps,
                           (int)(HS_SWEEP_SPACING_NS / 1000000));
    if (view->peak_nanos)
        hs_profile_add_comment(p,
                               "peak: inuse as of the GC after which the heap was highest in the "
                               "run (t=%lld ms, epoch %u, %llu bytes); G1 humongous objects (if "
                               "any) are not judged at the peak: their bytes are in the residual "
                               "site",
                               (long long)(view->peak_nanos / 1000000), view->epoch,
                               (unsigned long long)view->heap.used_bytes);
    if (view->humongous_tracked || view->humongous_known)
        hs_profile_add_comment(p,
                               "G1 humongous objects: %u tracked without references, liveness by "
                               "a heap walk at this dump%s",
                               view->humongous_tracked,
                               view->humongous_known ? "" : " (failed: their liveness is unknown)");
    if (view->inuse_basis != HS_INUSE_NEVER_COLLECTED) /* no liveness labels then */
        add_liveness_comment(p, view, sum, confirmed);
    for (uint32_t i = 0; i < view->nhistory; i++) {
        const hs_live_history_entry *h = &view->history[i];
        char when[40];
        if (h->valid)
            hs_profile_add_comment(p, "live-set history: %s GC epoch %u, heap used after it %llu bytes",
                                   hs_format_utc(h->time_nanos, when, sizeof when), h->epoch,
                                   (unsigned long long)h->used);
    }
}

/* The residual pseudo-site: heap the tracked samples do not explain. */
static void add_residual_sample(builder *b, int64_t bytes) {
    uint32_t unused = 0;
    uint32_t f = pseudo_function(b, &unused, HS_LIVE_RESIDUAL_NAME);
    uint32_t loc = f == UINT32_MAX ? f : hs_profile_add_location(b->profile, f, 0);
    int64_t values[HS_PROFILE_MAX_VALUES] = {0};
    values[HS_VALUE_INUSE_SPACE] = bytes;
    if (loc != UINT32_MAX) hs_profile_add_sample(b->profile, &loc, 1, values, 0);
}

/* Says at the top of the comments (after the file's `what`) what in-use stands for when no
 * GC has run, and opens the profile on the view that has numbers unless its reader asked
 * for one (inuse_basis.h). */
static void note_inuse_basis(builder *b, const char *gc_name) {
    char note[512];
    hs_inuse_basis_note(b->inuse_basis, gc_name, note, sizeof note);
    bool chosen = !b->req->default_type;
    const char *then = b->inuse_basis == HS_INUSE_NEVER_COLLECTED
                           ? "; inuse_* values are the alloc_* values of the whole run"
                       : chosen ? "; inuse_* values are 0, and the profile opens on alloc_space"
                                : "; inuse_* values are 0";
    if (note[0] && hs_profile_add_comment(b->profile, "%s%s", note, then) == 0)
        hs_profile_raise_last_comment(b->profile, b->note_at);
    if (chosen)
        hs_profile_set_default_sample_type(b->profile, hs_inuse_basis_default_type(b->inuse_basis));
}

/* Computes b->inuse for every bucket; adds the residual site and the live comments. */
static int prepare_live(builder *b, JNIEnv *jni, uint32_t nbuckets) {
    const hs_snapshot_source *src = b->src;
    hs_live_view view;
    if (hs_live_collect_when(src->live, jni, nbuckets, b->req->live, &view) != 0) {
        hs_live_view_free(&view);
        return -1;
    }
    hs_live_estimate *est = live_estimates(src, &view, b->rate_scale);
    b->inuse = calloc((size_t)nbuckets + 1, sizeof *b->inuse);
    if (!est || !b->inuse) {
        free(est);
        hs_live_view_free(&view);
        return -1;
    }
    hs_live_scale_summary sum;
    uint64_t heap = view.heap.valid ? view.heap.used_bytes : 0;
    b->inuse_basis = view.inuse_basis;
    note_inuse_basis(b, view.gc_name);
    if (view.inuse_basis == HS_INUSE_NEVER_COLLECTED) {
        inuse_is_allocated(b, nbuckets, &sum);
    } else {
        hs_live_scale_apply(est, (size_t)nbuckets + 1, heap, src->live_scale, b->inuse, &sum);
        /* live_scale=proportional scales sites up to the heap on purpose: no cap there. */
        bool scaled = sum.heap_known && src->live_scale == HS_SCALE_PROPORTIONAL;
        if (!scaled && cap_inuse_to_alloc(b, nbuckets, &sum) != 0) {
            free(est);
            hs_live_view_free(&view);
            return -1;
        }
    }
    b->inuse_var = inuse_variances(src, &view, est, b->inuse, b->rate_scale);
    if (!b->inuse_var) {
        free(est);
        hs_live_view_free(&view);
        return -1;
    }
    if (sum.residual_bytes > 0) add_residual_sample(b, sum.residual_bytes);
    add_live_comments(b->profile, &view, &sum, src->live_scale,
                      atomic_load(&src->sampled.counters->live_untracked), confirmed_bytes(&view, est));
    hs_age_add_comment(b->profile);
    /* Growing sites: in the comments of every profile; as log lines at log=info, and at
     * the default level when the program ran out of heap (the OOM profile), but not again
     * for a peak profile, which would only repeat them. */
    if (b->req->live != HS_LIVE_PEAK)
        hs_suspects_report(&src->sampled, b->profile, &view,
                           b->req->live == HS_LIVE_NOW_NO_JAVA_ALLOC ? HS_LOG_WARN : HS_LOG_INFO);
    hs_snapshot_live *out = b->req->live_out;
    if (out) {
        out->valid = 1;
        out->inuse_basis = view.inuse_basis;
        out->heap = view.heap;
        out->nsuspects = view.nsuspects;
        memcpy(out->suspects, view.suspects, sizeof out->suspects);
    }
    b->ages = view.ages; /* kept for add_bucket's split by liveness and age */
    view.ages = NULL;
    if (view.inuse_basis != HS_INUSE_NEVER_COLLECTED) { /* the liveness split; none when
                                                         * nothing is ever collected */
        b->live_weight = view.live_weight;
        b->confirmed_weight = view.confirmed_weight;
        b->confirmed_ages = view.confirmed_ages;
        view.live_weight = view.confirmed_weight = NULL;
        view.confirmed_ages = NULL;
    }
    free(est);
    hs_live_view_free(&view);
    return 0;
}

uint64_t *hs_snapshot_read_weights(const hs_snapshot_source *src, uint32_t *n) {
    *n = hs_sample_table_count(src->sampled.samples);
    uint64_t *fp = calloc((size_t)*n + 1, sizeof *fp);
    for (uint32_t i = 1; fp && i <= *n; i++) {
        hs_bucket_snapshot bucket;
        if (hs_sample_table_get(src->sampled.samples, i, &bucket) == 0) fp[i] = bucket.weight_fp;
    }
    return fp;
}

bool hs_snapshot_extend_weights(uint64_t **fp, uint32_t *n, uint32_t n_new) {
    if (n_new <= *n && *fp) return true;
    uint64_t *grown = realloc(*fp, ((size_t)n_new + 1) * sizeof *grown);
    if (!grown) return false;
    uint32_t from = *fp ? *n + 1 : 0;
    memset(grown + from, 0, ((size_t)n_new + 1 - from) * sizeof *grown);
    *fp = grown;
    *n = n_new;
    return true;
}

hs_profile *hs_snapshot_build(const hs_snapshot_source *src, JNIEnv *jni) {
    return hs_snapshot_build_request(src, jni, NULL);
}

hs_profile *hs_snapshot_build_request(const hs_snapshot_source *src, JNIEnv *jni, const hs_snapshot_request *req) {
    static const hs_snapshot_request whole_run = {.live = HS_LIVE_NOW};
    if (req && req->live_out) memset(req->live_out, 0, sizeof *req->live_out);
    builder b = {.src = src, .profile = hs_profile_new(), .req = req ? req : &whole_run,
                 .rate_scale = hs_throttle_dump_scale(src->throttle)};
    uint32_t classes = hs_symbols_class_count(src->sampled.symbols);
    b.nclasses = classes;
    b.function_of_method = hs_ptr_map_create(hs_symbols_method_count(src->sampled.symbols) + 16);
    b.function_of_class = calloc((size_t)classes + 1, sizeof *b.function_of_class);
    b.locations = malloc(sizeof *b.locations * (size_t)(src->depth + 2));
    int live = atomic_load(src->live) != NULL && jni != NULL;
    int ok = b.profile && b.function_of_method && b.function_of_class && b.locations &&
             set_header(src, b.profile, live, b.req) == 0;
    uint32_t buckets = !ok ? 0 : b.req->alloc_fp ? b.req->nbuckets : hs_sample_table_count(src->sampled.samples);
    if (ok) b.note_at = b.profile->ncomments;
    if (ok) add_comments(src, b.profile, b.rate_scale);
    if (ok && live) ok = prepare_live(&b, jni, buckets) == 0;
    for (uint32_t i = 1; ok && i <= buckets; i++) add_bucket(&b, i, src->sampled.interval);
    if (ok) add_spilled_sample(&b);
    if (ok) add_summary_comments(&b);
    if (b.function_of_method) hs_ptr_map_destroy(b.function_of_method);
    free(b.function_of_class);
    free(b.locations);
    free(b.inuse);
    free(b.inuse_var);
    free(b.ages);
    free(b.live_weight);
    free(b.confirmed_weight);
    free(b.confirmed_ages);
    if (ok && !b.profile->failed) return b.profile;
    hs_profile_free(b.profile);
    return NULL;
}
