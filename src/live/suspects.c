/* suspects.c: names and words the growing sites growth.c ranks (see suspects.h). */
#include "suspects.h"

#include <math.h>
#include <stdio.h>

#include "estimate.h"
#include "live_age.h"
#include "live_tracker.h"
#include "overflow.h"
#include "report.h"
#include "sample_table.h"
#include "stack_store.h"
#include "symbols.h"

/* The age the lines quote a share for: "older than 8 GCs". */
#define OLD_AGE 8

int hs_suspect_bucket_info(uint32_t bucket, double *size, double *scale, void *agent) {
    hs_agent *a = agent;
    hs_bucket_snapshot b;
    if (hs_sample_table_get(a->samples, bucket, &b) != 0 || b.key.size == 0) return 0;
    *size = (double)b.key.size;
    *scale = hs_unbias_scale(*size, a->opts.interval) *
             hs_untracked_correction(b.weight_fp, b.untracked_fp);
    return 1;
}

/* "Class.method:line (allocated class)" of a bucket: its innermost Java frame. */
static void site_name(hs_agent *agent, uint32_t bucket, char *out, size_t len) {
    hs_bucket_snapshot b;
    if (hs_sample_table_get(agent->samples, bucket, &b) != 0) {
        snprintf(out, len, "[unknown site]");
        return;
    }
    const char *cls = hs_symbols_class_name(agent->symbols, b.key.class_id);
    uint32_t depth = 0;
    bool truncated = false;
    const hs_frame *frames = hs_stack_store_get(agent->stacks, b.key.stack_id, &depth, &truncated);
    const hs_method_info *m =
        frames && depth > 0 ? hs_symbols_cached_method(agent->symbols, (jmethodID)frames[0].method)
                            : NULL;
    if (m)
        snprintf(out, len, "%s:%d (%s)", m->name, hs_line_for_bci(m->lines, m->nlines, frames[0].bci),
                 cls ? cls : "[unknown]");
    else
        snprintf(out, len, "[no Java frames] (%s)", cls ? cls : "[unknown]");
}

void hs_suspect_site_key(hs_agent *agent, uint32_t bucket, char *out, size_t len) {
    hs_bucket_snapshot b;
    if (hs_sample_table_get(agent->samples, bucket, &b) != 0) {
        snprintf(out, len, "[unknown site]");
        return;
    }
    const char *cls = hs_symbols_class_name(agent->symbols, b.key.class_id);
    uint32_t depth = 0;
    bool truncated = false;
    const hs_frame *frames = b.key.stack_id == HS_STACK_FOLDED
                                 ? NULL
                                 : hs_stack_store_get(agent->stacks, b.key.stack_id, &depth,
                                                      &truncated);
    enum { MAX_FRAMES = 256 }; /* the site is the first frame outside the JDK: near the leaf */
    const char *names[MAX_FRAMES];
    int64_t lines[MAX_FRAMES];
    uint32_t n = 0;
    for (uint32_t i = 0; frames && i < depth && n < MAX_FRAMES; i++, n++) {
        const hs_method_info *m = hs_symbols_cached_method(agent->symbols, (jmethodID)frames[i].method);
        names[n] = m ? m->name : "[unknown]";
        lines[n] = m ? hs_line_for_bci(m->lines, m->nlines, frames[i].bci) : 0;
    }
    hs_report_site_key(names, lines, n, cls, out, len);
}

/* Bytes in MB (10^6), three significant figures where they fit. */
static void megabytes(double bytes, char *out, size_t len) {
    double mb = bytes / 1e6;
    snprintf(out, len, fabs(mb) >= 100 ? "%.0f MB" : fabs(mb) >= 10 ? "%.1f MB" : "%.2f MB", mb);
}

void hs_suspect_format(hs_agent *agent, const hs_growth_site *s, const double *age_weight,
                       char *out, size_t len) {
    char name[512], growth[32], sigma[32], slope[32], old[48] = "";
    site_name(agent, s->bucket, name, sizeof name);
    megabytes(s->growth_bytes, growth, sizeof growth);
    megabytes(s->growth_sigma, sigma, sizeof sigma);
    megabytes(s->slope_bytes_per_gc, slope, sizeof slope);
    if (age_weight)
        snprintf(old, sizeof old, ", %.0f %% older than %d GCs",
                 100 * hs_age_share_at_least(age_weight, OLD_AGE), OLD_AGE);
    snprintf(out, len, "%s +%s over %u GCs (±%s), slope %s%s/GC%s, %u samples", name, growth,
             s->last_epoch - s->first_epoch, sigma, s->slope_bytes_per_gc >= 0 ? "+" : "", slope,
             old, s->samples);
}

void hs_suspects_report(hs_agent *agent, hs_profile *p, const hs_live_view *view,
                        hs_log_level level) {
    if (p)
        hs_profile_add_comment(
            p,
            "growth: %u GCs recorded; per-GC walk of the live table %.3f ms for %u live "
            "samples; suspects are sites whose in-use estimate grew by more than %.0f standard "
            "errors over the window (± is one standard error, MB is 10^6 bytes)",
            view->growth_records, (double)view->growth_walk_nanos / 1e6, view->growth_walk_entries,
            HS_GROWTH_SIGMAS);
    for (uint32_t i = 0; i < view->nsuspects; i++) {
        const hs_growth_site *s = &view->suspects[i];
        const double *age =
            view->ages && s->bucket <= view->nbuckets ? view->ages[s->bucket].weight : NULL;
        char line[1024];
        hs_suspect_format(agent, s, age, line, sizeof line);
        if (p) hs_profile_add_comment(p, "suspect: %s", line);
        hs_log(level, "suspect: %s", line);
    }
}
