/* agent_state.c: the one hs_agent of this process (see agent.h).
 *
 * A static object, never freed: a callback that races with shutdown can always read
 * its phase, whatever has been torn down behind it. */
#include "control/agent.h"

#include "base/tls_model.h"
#include "base/wall_clock.h"

static hs_agent the_agent = {.lifecycle_lock = PTHREAD_MUTEX_INITIALIZER};

hs_agent *hs_agent_get(void) { return &the_agent; }

int hs_agent_callbacks_in_flight(hs_agent *agent) {
    int sum = 0;
    for (int i = 0; i < HS_IN_FLIGHT_STRIPES; i++) sum += atomic_load(&agent->in_flight[i].count);
    return sum;
}

/* Each thread always uses the same stripe, picked round-robin on its first callback: one
 * shared counter would bounce its cache line between the cores on every sample. */
atomic_int *hs_agent_enter(hs_agent *agent) {
    static atomic_uint next_stripe;
    static _Thread_local int stripe HS_TLS_FAST = -1;
    if (stripe < 0) stripe = (int)(atomic_fetch_add(&next_stripe, 1) % HS_IN_FLIGHT_STRIPES);
    atomic_int *count = &agent->in_flight[stripe].count;
    atomic_fetch_add(count, 1);
    return count;
}

static bool none_in_flight(void *agent) { return hs_agent_callbacks_in_flight(agent) == 0; }

bool hs_agent_drain(hs_agent *agent, int timeout_ms) {
    return hs_wait_until(none_in_flight, agent, timeout_ms);
}

hs_sampled hs_agent_sampled(hs_agent *agent) {
    return (hs_sampled){.stacks = agent->stacks, .samples = agent->samples,
                        .symbols = agent->symbols, .counters = &agent->counters,
                        .interval = agent->opts.interval};
}

/* hs_options_format as a snapshot calls it: it knows no option table. */
static size_t format_options(const void *opts, char *buf, size_t len) {
    return hs_options_format(opts, buf, len);
}

hs_snapshot_source hs_agent_snapshot_source(hs_agent *agent) {
    const hs_options *o = &agent->opts;
    return (hs_snapshot_source){.sampled = hs_agent_sampled(agent), .depth = o->depth,
                                .threads = o->threads, .live_scale = o->live_scale,
                                .format = o->format, .collapsed_type = hs_metric_name(o->collapsed),
                                .format_options = format_options, .options = o,
                                .overflow = &agent->overflow,
                                .thread_names = agent->thread_names,
                                .throttle = agent->throttle, .survival = agent->survival,
                                .live = &agent->live,
                                .vm_name = agent->vm_name, .java_version = agent->java_version,
                                .start_nanos = agent->start_nanos};
}

hs_retention_source hs_agent_retention_source(hs_agent *agent) {
    return (hs_retention_source){.vm = agent->vm, .sampled = hs_agent_sampled(agent),
                                 .live = &agent->live, .java_version = agent->java_version};
}
