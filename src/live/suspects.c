/* suspects.c: names and words the growing sites growth.c ranks (see suspects.h). */
#include "live/suspects.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "sampling/estimate.h"
#include "live/live_age.h"
#include "live/live_tracker.h"
#include "sampling/overflow.h"
#include "sampling/sample_table.h"
#include "sampling/jvm_names.h"
#include "sampling/stack_store.h"
#include "sampling/symbols.h"

/* The age the lines quote a share for: "older than 8 GCs". */
#define OLD_AGE 8

int hs_suspect_bucket_info(uint32_t bucket, double *size, double *scale, void *sampled) {
    const hs_sampled *s = sampled;
    hs_bucket_snapshot b;
    if (hs_sample_table_get(s->samples, bucket, &b) != 0 || b.key.size == 0) return 0;
    *size = (double)b.key.size;
    *scale = hs_unbias_scale(*size, s->interval) *
             hs_untracked_correction(b.weight_fp, b.untracked_fp);
    return 1;
}

/* A bucket's allocated class and stack (NULL frames for a folded stack). false, with
 * "[unknown site]" in out, when the bucket is unknown. */
static bool bucket_stack(const hs_sampled *sampled, uint32_t bucket, const char **cls,
                         const hs_frame **frames, uint32_t *depth, char *out, size_t len) {
    hs_bucket_snapshot b;
    bool truncated = false;
    *frames = NULL;
    *depth = 0;
    if (hs_sample_table_get(sampled->samples, bucket, &b) != 0) {
        snprintf(out, len, "[unknown site]");
        return false;
    }
    *cls = hs_symbols_class_name(sampled->symbols, b.key.class_id);
    if (b.key.stack_id != HS_STACK_FOLDED)
        *frames = hs_stack_store_get(sampled->stacks, b.key.stack_id, depth, &truncated);
    return true;
}

/* "Class.method:line (allocated class)" of a bucket: its innermost frame ("[no Java
 * frames]" only for a stack that has none; a frame without names says why, as in the
 * profile: "[method table full]"). */
static void site_name(const hs_sampled *sampled, uint32_t bucket, char *out, size_t len) {
    const char *cls = NULL;
    const hs_frame *frames;
    uint32_t depth;
    if (!bucket_stack(sampled, bucket, &cls, &frames, &depth, out, len)) return;
    const hs_method_info *m = frames && depth > 0 ? hs_symbols_frame_method(&frames[0]) : NULL;
    if (m && m->nlines > 0)
        snprintf(out, len, "%s:%d (%s)", m->name, hs_line_for_bci(m->lines, m->nlines, frames[0].bci),
                 cls ? cls : "[unknown]");
    else if (m)
        snprintf(out, len, "%s (%s)", m->name, cls ? cls : "[unknown]");
    else if (frames)
        snprintf(out, len, "[no Java frames] (%s)", cls ? cls : "[unknown]");
    else
        snprintf(out, len, "%s (%s)", HS_STACK_FOLDED_NAME, cls ? cls : "[unknown]");
}

/* The site key of a bucket (hs_suspect_site_key); *no_room tells whether its samples found
 * no room: a folded stack ("[stack table full]"), or a frame up to the key's frame whose
 * method the method table had no room for. */
static void site_key(const hs_sampled *sampled, uint32_t bucket, char *out, size_t len,
                     bool *no_room) {
    const char *cls = NULL;
    const hs_frame *frames;
    uint32_t depth;
    *no_room = false;
    if (!bucket_stack(sampled, bucket, &cls, &frames, &depth, out, len)) return;
    enum { MAX_FRAMES = 256 }; /* the site is the first frame outside the JDK: near the leaf */
    const char *names[MAX_FRAMES];
    int64_t lines[MAX_FRAMES];
    uint32_t n = 0;
    if (!frames) { /* folded: the stack found no room */
        names[n] = HS_STACK_FOLDED_NAME;
        lines[n++] = 0;
        *no_room = true;
    }
    for (uint32_t i = 0; frames && i < depth && n < MAX_FRAMES; i++, n++) {
        const hs_method_info *m = hs_symbols_frame_method(&frames[i]);
        names[n] = m->name;
        lines[n] = hs_line_for_bci(m->lines, m->nlines, frames[i].bci);
        if (m == &hs_method_table_full) *no_room = true;
        if (names[n][0] != '[' && !hs_is_jdk_frame(names[n])) { /* the key's frame */
            n++;
            break;
        }
    }
    hs_site_key(names, lines, n, cls, out, len);
}

void hs_suspect_site_key(const hs_sampled *sampled, uint32_t bucket, char *out, size_t len) {
    bool no_room;
    site_key(sampled, bucket, out, len, &no_room);
}

int hs_suspect_growth_info(uint32_t bucket, double *size, double *scale, uint64_t *site,
                           void *sampled) {
    if (!hs_suspect_bucket_info(bucket, size, scale, sampled)) return 0;
    char key[512];
    bool no_room;
    site_key(sampled, bucket, key, sizeof key, &no_room);
    /* What found no room is not a site: it gathers every site whose stacks (or methods)
     * came after a table filled, so its in-use grows as the program's older objects are
     * replaced by newer ones, leak or not. Left out of growth, never named a suspect. */
    if (no_room) return 0;
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a of the key */
    for (const char *c = key; *c; c++) h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
    *site = h;
    return 1;
}

/* Bytes in MB (10^6), three significant figures where they fit. */
static void megabytes(double bytes, char *out, size_t len) {
    double mb = bytes / 1e6;
    snprintf(out, len, fabs(mb) >= 100 ? "%.0f MB" : fabs(mb) >= 10 ? "%.1f MB" : "%.2f MB", mb);
}

void hs_suspect_span(const hs_growth_site *s, char *out, size_t len) {
    double seconds = (double)(s->last_nanos - s->first_nanos) / 1e9;
    if (s->horizon == HS_HORIZON_GCS || s->horizon == HS_HORIZON_MARKINGS)
        snprintf(out, len, "%u GCs", s->last_epoch - s->first_epoch);
    else if (seconds < 120) snprintf(out, len, "%.0f s", seconds);
    else if (seconds < 7200) snprintf(out, len, "%.0f min", seconds / 60);
    else snprintf(out, len, "%.1f h", seconds / 3600);
}

void hs_suspect_format(const hs_sampled *sampled, const hs_growth_site *s, const double *age_weight,
                       char *out, size_t len) {
    char name[512], growth[32], sigma[32], slope[32], span[32], old[48] = "";
    site_name(sampled, s->bucket, name, sizeof name);
    megabytes(s->growth_bytes, growth, sizeof growth);
    megabytes(s->growth_sigma, sigma, sizeof sigma);
    bool per_gc = s->per_gc;
    double slope_bytes = per_gc ? s->slope_bytes_per_gc : s->slope_bytes_per_second * 60;
    megabytes(slope_bytes, slope, sizeof slope);
    hs_suspect_span(s, span, sizeof span);
    if (age_weight)
        snprintf(old, sizeof old, ", %.0f %% older than %d GCs",
                 100 * hs_age_share_at_least(age_weight, OLD_AGE), OLD_AGE);
    snprintf(out, len, "%s +%s over %s ±%s (horizon: %s, %.0f s), slope %s%s/%s%s, %u samples",
             name, growth, span, sigma, hs_growth_horizon_name(s->horizon),
             (double)(s->last_nanos - s->first_nanos) / 1e9, slope_bytes >= 0 ? "+" : "", slope,
             per_gc ? "GC" : "min", old, s->samples);
}

void hs_suspects_report(const hs_sampled *sampled, hs_profile *p, const hs_live_view *view,
                        hs_log_level level) {
    if (p)
        hs_profile_add_comment(
            p,
            "growth: %s in-use figure now against what survived at the start of each horizon "
            "(dead objects not yet collected can hide growth, never fake it): %u points of the "
            "last %d GCs, %u of the last %d complete markings, %u of the last %d %d-second "
            "periods, %u of the last %d minutes, %u of the last %d hours (%zu bytes held, at most "
            "%d sites a point, and %zu for the record being built); per-GC walk of the "
            "live table %.3f ms for %u surviving samples; suspects are sites whose estimate grew "
            "by more than %.0f standard errors at some horizon, named at the one where that is "
            "most significant (± is one standard error, MB is 10^6 bytes)",
            view->liveness_supported ? "the confirmed" : "every survivor's (markings cannot be told)",
            view->growth_points[HS_HORIZON_GCS], HS_GROWTH_WINDOW,
            view->growth_points[HS_HORIZON_MARKINGS], HS_GROWTH_WINDOW,
            view->growth_points[HS_HORIZON_SECONDS], HS_GROWTH_WINDOW, HS_GROWTH_SECONDS_PERIOD,
            view->growth_points[HS_HORIZON_MINUTES], HS_GROWTH_WINDOW,
            view->growth_points[HS_HORIZON_HOURS], HS_GROWTH_WINDOW, view->growth_memory,
            HS_GROWTH_MAX_SITES, view->growth_record_memory, (double)view->growth_walk_nanos / 1e6, view->growth_walk_entries,
            HS_GROWTH_SIGMAS);
    for (uint32_t i = 0; i < view->nsuspects; i++) {
        const hs_growth_site *s = &view->suspects[i];
        const double *age =
            view->ages && s->bucket <= view->nbuckets ? view->ages[s->bucket].weight : NULL;
        char line[1024];
        hs_suspect_format(sampled, s, age, line, sizeof line);
        if (p) hs_profile_add_comment(p, "suspect: %s", line);
        hs_log(level, "suspect: %s", line);
    }
}
