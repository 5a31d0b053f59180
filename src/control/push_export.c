/* push_export.c: the push thread, its windows and its exit (see push_export.h).
 *
 * One state per process. The push thread alone builds windows, uses the sink and the
 * transport; the status command reads the sink's counters (locked inside the sink) and
 * the fields set before the thread starts. */
#include "control/push_export.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/agent_thread.h"
#include "control/dumps.h"
#include "export/ingest_shape.h"
#include "base/log.h"
#include "output/pprof.h"
#include "export/push_sink.h"
#include "export/push_transport.h"
#include "export/pyroscope_ingest.h"
#include "control/secret_file.h"
#include "output/snapshot.h"
#include "base/wall_clock.h"

#define CONNECT_TIMEOUT_MS 3000
#define EXIT_BUDGET_MS (HS_PUSH_EXIT_MS - 500) /* the thread's share; the rest is slack */
#define INGEST_MAX_BYTES (4u << 20)            /* the ingester's limit, uncompressed */
#define MAX_AGE_MS (55 * 60 * 1000)            /* the ingester refuses what is ~1 h old */
#define RETRY_AFTER_MAX_MS (5 * 60 * 1000)

typedef struct {
    hs_agent *agent;
    hs_push_transport transport;
    hs_push_sink *sink;
    hs_agent_thread thread;
    char service[HS_PUSH_SERVICE_MAX + 1];
    char auth[HS_PUSH_HEADER_MAX];          /* "Authorization: ..." or "" (never logged) */
    char tenant[HS_PUSH_TENANT_MAX + 32];   /* "X-Scope-OrgID: ..." or "" */
    /* the window being collected */
    uint64_t *base_fp;
    uint32_t nbase;
    int64_t window_start;                   /* ns since the epoch */
    uint64_t rng;
    atomic_int_fast64_t abort_at_ms;        /* requests give up once the clock passes it */
    _Atomic uint64_t windows, build_failures, shaped_folded, shaped_truncated;
    bool failing;                           /* the last attempt failed (log on change) */
    struct {                                /* per verdict: the last failure logged, and */
        char detail[160];                   /* how often it came again since ("": none) */
        unsigned repeats;
    } logged[HS_PUSH_UNANSWERED + 1];
    bool stuck;                             /* the thread did not stop in time */
} push_state;

static push_state P;

static int64_t mono_ms(void) { return hs_monotonic_nanos() / 1000000; }

static int64_t clock_now(void *ctx) {
    (void)ctx;
    return mono_ms();
}

static uint64_t clock_random(void *ctx) { /* xorshift64*: jitter only, not security */
    uint64_t *x = ctx;
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

int64_t hs_push_queue_bytes(int64_t memory) { return memory / 16; }

/* --- opening --------------------------------------------------------------------------------- */

/* Reads push_auth=@FILE into the Authorization header. 0, or -1 (logged, never quoting it). */
static int load_auth(const char *path) {
    char text[HS_PUSH_AUTH_MAX + 1], why[HS_PATH_MAX + 160];
    size_t n = 0, len = 0;
    if (hs_read_secret_file(path, text, sizeof text, &n, why, sizeof why) == 0)
        len = hs_pyroscope_auth_header(text, n, P.auth, sizeof P.auth, why, sizeof why);
    explicit_bzero(text, sizeof text);
    if (len > 0) return 0;
    hs_error("bad option 'push_auth=@%s': %s; accepted: a file private to its owner holding "
             "user:token (basic) or a token (bearer)", path, why);
    return -1;
}

/* service=, or the main class or jar of sun.java.command. */
static void choose_service(hs_agent *agent) {
    if (agent->opts.service[0]) {
        snprintf(P.service, sizeof P.service, "%s", agent->opts.service);
        return;
    }
    char *command = NULL;
    jvmtiError err = (*agent->jvmti)->GetSystemProperty(agent->jvmti, "sun.java.command", &command);
    hs_pyroscope_service_from_command(err == JVMTI_ERROR_NONE ? command : NULL, P.service,
                                      sizeof P.service);
    if (command) (*agent->jvmti)->Deallocate(agent->jvmti, (unsigned char *)command);
}

static hs_push_policy policy(const hs_options *o) {
    int64_t period = o->push_period_ms;
    int64_t count = 3600000 / period + 1;
    int64_t backoff_max = 2 * period < 2000 ? 2000 : 2 * period > 60000 ? 60000 : 2 * period;
    return (hs_push_policy){.max_profiles = (uint32_t)(count < 4 ? 4 : count > 1024 ? 1024 : count),
                            .max_bytes = (size_t)hs_push_queue_bytes(o->memory),
                            .backoff_min_ms = 500, .backoff_max_ms = backoff_max,
                            .retry_after_max_ms = RETRY_AFTER_MAX_MS, .max_age_ms = MAX_AGE_MS};
}

int hs_push_export_open(hs_agent *agent) {
    const hs_options *o = &agent->opts;
    if (!o->push_url[0] || P.sink) return 0;
    char why[512];
    P.agent = agent;
    if (o->push_auth_file[0] && load_auth(o->push_auth_file + 1) != 0) return -1;
    if (hs_curl_transport_open(&P.transport, why, sizeof why) != 0) {
        hs_error("bad option 'push=%s': %s", o->push_url, why);
        return -1;
    }
    if (o->push_tenant[0]) snprintf(P.tenant, sizeof P.tenant, "X-Scope-OrgID: %s", o->push_tenant);
    choose_service(agent);
    P.rng = (uint64_t)hs_monotonic_nanos() ^ ((uint64_t)getpid() << 32) ^ 0x9E3779B97F4A7C15ULL;
    hs_push_policy pol = policy(o);
    hs_push_clock clock = {.now_ms = clock_now, .random = clock_random, .ctx = &P.rng};
    atomic_store(&P.abort_at_ms, INT64_MAX);
    if (!(P.sink = hs_push_sink_create(&pol, &clock)) ||
        hs_agent_thread_init(&P.thread, agent->jvmti, "heapsampler push") != 0) {
        hs_error("cannot set up push= (out of memory or no monitor)");
        hs_push_sink_destroy(P.sink);
        P.sink = NULL;
        return -1;
    }
    hs_info("push: every %lld ms to %s/ingest as service %s%s%s", (long long)o->push_period_ms,
            o->push_url, P.service, P.tenant[0] ? ", tenant " : "", o->push_tenant);
    return 0;
}

/* --- one window ------------------------------------------------------------------------------ */

/* Encodes a snapshot for the ingester: shaped, pprof, at most INGEST_MAX_BYTES before
 * gzip (the samples are folded further until it fits), gzipped. */
static int encode_for_ingest(const hs_profile *p, void *ctx, uint8_t **out, size_t *len) {
    (void)ctx;
    hs_ingest_limits lim = hs_ingest_default_limits();
    for (;;) {
        hs_ingest_shaping what;
        hs_profile *shaped = hs_ingest_shape(p, &lim, &what);
        uint8_t *raw = NULL;
        size_t raw_len = 0;
        int rc = shaped ? hs_pprof_encode(shaped, &raw, &raw_len) : -1;
        hs_profile_free(shaped);
        if (rc == 0 && raw_len > INGEST_MAX_BYTES && lim.max_samples > 64) {
            free(raw);
            lim.max_samples /= 2; /* the stacks are long: fewer samples */
            continue;
        }
        if (rc == 0) rc = hs_gzip(raw, raw_len, out, len);
        free(raw);
        atomic_fetch_add(&P.shaped_folded, what.folded_samples);
        atomic_fetch_add(&P.shaped_truncated, what.truncated);
        return rc;
    }
}

/* Builds the window from window_start to now and queues it. */
static void push_window(JNIEnv *jni) {
    uint32_t n = 0;
    hs_snapshot_source src = hs_agent_snapshot_source(P.agent);
    uint64_t *now_fp = hs_snapshot_read_weights(&src, &n);
    int64_t now = hs_wall_nanos();
    if (now < P.window_start) now = P.window_start; /* the clock was set back: an empty window */
    if (!now_fp || !hs_snapshot_extend_weights(&P.base_fp, &P.nbase, n)) {
        free(now_fp);
        atomic_fetch_add(&P.build_failures, 1);
        hs_warn("push: out of memory building a window (it goes into the next one)");
        return;
    }
    hs_snapshot_request req = {
        .alloc_fp = now_fp, .base_fp = P.base_fp, .nbuckets = n, .time_nanos = P.window_start,
        .duration_nanos = now - P.window_start, .live = HS_LIVE_NOW,
        .what = "pushed to Pyroscope: alloc values cover this window only (time_nanos, "
                "duration_nanos); inuse as of the last GC"};
    uint8_t *body = NULL;
    size_t len = 0;
    if (hs_dumps_encode(P.agent, jni, &req, encode_for_ingest, NULL, &body, &len) != 0) {
        free(now_fp); /* the baseline stays: this window's allocation goes into the next */
        atomic_fetch_add(&P.build_failures, 1);
        return;
    }
    /* the window's exact nanoseconds: this window ends where the next one starts */
    hs_push_sink_add(P.sink, body, len, P.window_start, now);
    atomic_fetch_add(&P.windows, 1);
    free(P.base_fp);
    P.base_fp = now_fp;
    P.nbase = n;
    P.window_start = now;
}

/* --- sending --------------------------------------------------------------------------------- */

static bool should_abort(void *ctx) {
    (void)ctx;
    return mono_ms() >= atomic_load(&P.abort_at_ms);
}

/* Whether two errors are the same but for their numbers ("timed out after 2001 ms"). */
static bool same_failure(const char *a, const char *b) {
    while (*a && *b) {
        bool da = *a >= '0' && *a <= '9', db = *b >= '0' && *b <= '9';
        if (da != db) return false;
        if (da) {
            a += strspn(a, "0123456789");
            b += strspn(b, "0123456789");
        } else if (*a++ != *b++) {
            return false;
        }
    }
    return *a == *b;
}

/* The count of a failure's repeats since it was logged, said once (then cleared). */
static void flush_repeats(hs_push_verdict v) {
    if (P.logged[v].repeats)
        hs_warn("push: the same failure again %u times (logged once): %s", P.logged[v].repeats,
                P.logged[v].detail);
    P.logged[v].repeats = 0;
}

static void flush_all_repeats(void) {
    for (int v = 0; v <= HS_PUSH_UNANSWERED; v++) flush_repeats((hs_push_verdict)v);
}

/* A failed attempt's line, unless it is the failure last logged for this verdict again
 * (numbers aside): then it is only counted. */
static void log_failure(hs_push_verdict v, const char *detail, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void log_failure(hs_push_verdict v, const char *detail, const char *fmt, ...) {
    if (P.logged[v].detail[0] && same_failure(P.logged[v].detail, detail)) {
        P.logged[v].repeats++;
        return;
    }
    flush_repeats(v);
    snprintf(P.logged[v].detail, sizeof P.logged[v].detail, "%s", detail);
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    hs_warn("%s", line);
}

/* Logs what an attempt changed: each failure (one that is the last one logged for its
 * verdict again is only counted), and a recovery after failures, after which a failure
 * to connect or answer is news again. */
static void log_attempt(const hs_push_profile *p, hs_push_verdict v, const hs_push_outcome *o) {
    const char *url = P.agent->opts.push_url;
    long long from = (long long)p->from, until = (long long)p->until;
    switch (v) {
    case HS_PUSH_SENT:
        /* Repeats of a drop pending since its line are said now, not only at the next
         * different failure or at exit: no dropped window waits silently behind a success. */
        flush_all_repeats();
        if (!P.failing) break;
        P.logged[HS_PUSH_RETRY].detail[0] = P.logged[HS_PUSH_RESEND].detail[0] = '\0';
        hs_warn("push: %s answers again", url);
        break;
    case HS_PUSH_REJECTED:
        log_failure(v, o->detail, "push: %s refused the profile of %lld-%lld ns (%s): dropped, "
                    "it would not succeed", url, from, until, o->detail);
        break;
    case HS_PUSH_UNANSWERED:
        log_failure(v, o->detail, "push: %s did not answer the profile of %lld-%lld ns, sent "
                    "whole twice (%s): dropped; the receiver may hold it", url, from, until,
                    o->detail);
        break;
    case HS_PUSH_RESEND:
        log_failure(v, o->detail, "push: %s: %s after the whole profile was sent: it is sent "
                    "once more, the same window (from, until and body unchanged)", url,
                    o->detail);
        break;
    case HS_PUSH_RETRY:
        log_failure(v, o->detail, "push: %s: %s; retrying with backoff (profiles queue "
                    "meanwhile)", url, o->detail);
        break;
    }
    if (v != HS_PUSH_REJECTED && v != HS_PUSH_UNANSWERED)
        P.failing = v == HS_PUSH_RETRY || v == HS_PUSH_RESEND;
}

/* Sends the profile due; its verdict. */
static hs_push_verdict send_profile(const hs_push_profile *p, int64_t timeout_ms) {
    const hs_options *o = &P.agent->opts;
    char url[HS_PUSH_URL_MAX + HS_PUSH_SERVICE_MAX * 3 + HS_PUSH_LABELS_MAX * 3 + 128];
    hs_pyroscope_ingest_url(o->push_url, P.service, o->push_labels, p->from, p->until, url,
                            sizeof url);
    const char *headers[5] = {"Content-Type: application/octet-stream", "Expect:",
                              "User-Agent: heapsampler"};
    size_t nheaders = 3;
    if (P.auth[0]) headers[nheaders++] = P.auth;
    if (P.tenant[0]) headers[nheaders++] = P.tenant;
    hs_push_request req = {.url = url, .headers = headers, .nheaders = nheaders,
                           .body = p->body, .len = p->len,
                           .connect_timeout_ms = timeout_ms < CONNECT_TIMEOUT_MS ? timeout_ms
                                                                                 : CONNECT_TIMEOUT_MS,
                           .timeout_ms = timeout_ms, .abort = should_abort};
    hs_push_outcome out;
    P.transport.send(P.transport.ctx, &req, &out);
    hs_push_profile copy = *p; /* settling frees p */
    hs_push_verdict v = hs_push_sink_settle(P.sink, &out);
    log_attempt(&copy, v, &out);
    return v;
}

/* The last window and what is queued, until the exit budget is spent or the receiver fails. */
static void final_pass(JNIEnv *jni, int64_t deadline) {
    atomic_store(&P.abort_at_ms, deadline);
    int phase = atomic_load(&P.agent->phase);
    if (phase == HS_PHASE_RUNNING || phase == HS_PHASE_PAUSED) push_window(jni);
    for (;;) {
        int64_t wait, left = deadline - mono_ms();
        const hs_push_profile *p = hs_push_sink_due(P.sink, &wait);
        if (!p && wait > 0 && wait < left) { /* a backoff shorter than what is left */
            struct timespec pause = {wait / 1000, (wait % 1000) * 1000000};
            nanosleep(&pause, NULL);
            continue;
        }
        if (!p || left < 100) break;
        int64_t timeout = P.agent->opts.push_timeout_ms;
        hs_push_verdict v = send_profile(p, left > timeout ? timeout : left);
        if (v == HS_PUSH_RETRY || v == HS_PUSH_RESEND)
            break; /* the receiver is down or slow: what is left is dropped at exit */
    }
    hs_push_sink_abandon(P.sink);
}

static void JNICALL push_main(jvmtiEnv *jvmti, JNIEnv *jni, void *arg) {
    (void)arg;
    int64_t period = P.agent->opts.push_period_ms, next_window = mono_ms() + period;
    for (;;) {
        int64_t now = mono_ms(), wait;
        if (now >= next_window) {
            push_window(jni);
            next_window = next_window + period > now ? next_window + period : now + period;
        }
        const hs_push_profile *p = hs_push_sink_due(P.sink, &wait);
        if (p) {
            send_profile(p, P.agent->opts.push_timeout_ms);
            if (!hs_agent_thread_sleep(&P.thread, jvmti, 0)) break;
            continue;
        }
        int64_t sleep = next_window - mono_ms();
        if (wait >= 0 && wait < sleep) sleep = wait;
        if (!hs_agent_thread_sleep(&P.thread, jvmti, sleep > 1 ? sleep : 1)) break;
    }
    int64_t stop_at = atomic_load(&P.abort_at_ms);
    final_pass(jni, (stop_at == INT64_MAX ? mono_ms() : stop_at) + EXIT_BUDGET_MS);
    hs_agent_thread_exiting(&P.thread, jvmti);
}

void hs_push_export_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    if (!P.sink || P.thread.running) return;
    if (P.window_start == 0) P.window_start = agent->start_nanos; /* the first window */
    if (atomic_load(&agent->phase) != HS_PHASE_RUNNING ||
        hs_agent_thread_start(&P.thread, jvmti, jni, "heapsampler push", push_main, NULL) != 0)
        hs_warn("push: no profiles pushed in this run");
}

/* --- stopping and status --------------------------------------------------------------------- */

/* "S sent, R retried (N sent again after no answer, same window), Q queued (B bytes; at
 * most Q2, B2 bytes); dropped: ..." */
static int summary(char *buf, size_t len) {
    hs_push_counters c = hs_push_sink_counters(P.sink);
    return snprintf(buf, len,
                    "%llu sent, %llu retried (%llu sent again after no answer, same window), "
                    "%u queued (%zu bytes; at most %u, %zu bytes); dropped: %llu queue full, "
                    "%llu refused, %llu unanswered twice, %llu expired, %llu at exit; %llu "
                    "windows failed to build%s%s",
                    (unsigned long long)c.sent, (unsigned long long)c.retried,
                    (unsigned long long)c.resent, c.queued, c.queued_bytes, c.peak_queued,
                    c.peak_bytes, (unsigned long long)c.dropped_full,
                    (unsigned long long)c.rejected, (unsigned long long)c.dropped_unanswered,
                    (unsigned long long)c.dropped_expired, (unsigned long long)c.dropped_exit,
                    (unsigned long long)atomic_load(&P.build_failures),
                    c.last_error[0] ? "; last error: " : "", c.last_error);
}

void hs_push_export_stop(hs_agent *agent) {
    if (!P.sink || P.stuck) return;
    atomic_store(&P.abort_at_ms, mono_ms()); /* a request in flight gives up */
    if (P.thread.running && !hs_agent_thread_stop(&P.thread, agent->jvmti, HS_PUSH_EXIT_MS)) {
        hs_warn("push: the push thread did not stop in time");
        P.stuck = true; /* it may still use the sink: leave it to the process exit */
        return;
    }
    hs_push_sink_abandon(P.sink); /* the thread never ran: nothing was sent */
    flush_all_repeats();
    char line[640];
    summary(line, sizeof line);
    hs_push_counters c = hs_push_sink_counters(P.sink);
    bool lost = c.dropped_full || c.rejected || c.dropped_unanswered || c.dropped_expired ||
                c.dropped_exit;
    hs_log(lost ? HS_LOG_WARN : HS_LOG_INFO, "push: %s", line);
    hs_push_sink_destroy(P.sink);
    P.sink = NULL;
    P.transport.close(P.transport.ctx);
    free(P.base_fp);
    P.base_fp = NULL;
    explicit_bzero(P.auth, sizeof P.auth);
}

size_t hs_push_export_status(char *buf, size_t len) {
    int n;
    if (!P.sink || P.stuck) {
        n = snprintf(buf, len, "push: off\n");
    } else {
        char line[640];
        summary(line, sizeof line);
        n = snprintf(buf, len, "push: to %s as %s every %lld ms, %llu windows; %s\n",
                     P.agent->opts.push_url, P.service, (long long)P.agent->opts.push_period_ms,
                     (unsigned long long)atomic_load(&P.windows), line);
    }
    return n > 0 ? (size_t)n : 0;
}
