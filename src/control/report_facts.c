/* report_facts.c: what the report's header and its suspects need from the running agent (see
 * report_facts.h). */
#include "control/report_facts.h"

#include <stdio.h>
#include <string.h>

#include "live/live_tracker.h"
#include "live/suspects.h"
#include "sampling/throttle.h"
#include "base/wall_clock.h"

/* The rate cap in a few words, for the report's header. */
static void rate_cap_text(hs_agent *agent, char *out, size_t len) {
    if (!agent->throttle) {
        snprintf(out, len, "off");
        return;
    }
    hs_throttle_stats st;
    hs_throttle_stats_read(agent->throttle, hs_throttle_clock_nanos(), &st);
    snprintf(out, len, "%lld/%s, %llu of %llu samples kept (estimates weighted accordingly)",
             (long long)st.rate, st.period_ns >= 60000000000LL ? "min" : "s",
             (unsigned long long)st.kept, (unsigned long long)st.offered);
}

typedef struct {
    hs_report_facts facts;
    char rate_cap[160];
} report_facts;

static void fill_facts(hs_agent *agent, const hs_snapshot_live *live, report_facts *out) {
    hs_report_facts *f = &out->facts;
    memset(out, 0, sizeof *out);
    f->now_nanos = hs_wall_nanos();
    f->live = live->valid != 0;
    f->heap_known = live->heap.valid != 0;
    f->heap_used = live->heap.valid ? live->heap.used_bytes : 0;
    hs_live_status_info status;
    rate_cap_text(agent, out->rate_cap, sizeof out->rate_cap);
    if (hs_live_status(&agent->live, &status) == 0) {
        f->gc_name = status.gc_name;
        f->heap_source = status.heap_source;
        f->last_gc_nanos = status.last_gc.time_nanos; /* 0: no GC swept yet */
        f->gc_count = atomic_load(&agent->gc_epoch);
    }
    f->interval = agent->opts.interval;
    f->interval_now = atomic_load(&agent->sampling_interval);
    f->rate_cap = out->rate_cap;
    hs_sampled sampled = hs_agent_sampled(agent);
    for (uint32_t i = 0; i < live->nsuspects && i < HS_REPORT_MAX_SUSPECTS; i++) {
        const hs_growth_site *g = &live->suspects[i];
        hs_report_suspect *s = &f->suspects[f->nsuspects++];
        hs_suspect_site_key(&sampled, g->bucket, s->key, sizeof s->key);
        s->growth_bytes = g->growth_bytes;
        s->growth_sigma = g->growth_sigma;
        s->gcs = g->last_epoch - g->first_epoch;
    }
}

int hs_report_of_agent(hs_agent *agent, const hs_profile *p, const hs_snapshot_live *live,
                       const hs_report_options *o, hs_text *out) {
    report_facts facts;
    fill_facts(agent, live, &facts);
    return hs_report_write(p, &facts.facts, o, out);
}
