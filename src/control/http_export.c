/* http_export.c: the HTTP endpoint's lifecycle and profile source (see http_export.h). */
#include "control/http_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/agent_thread.h"
#include "control/control.h"
#include "control/dumps.h"
#include "export/http_server.h"
#include "output/legacy_heap.h"
#include "live/live_tracker.h"
#include "base/log.h"
#include "export/pprof_routes.h"
#include "control/report_facts.h"
#include "control/secret_file.h"
#include "output/snapshot.h"
#include "base/wall_clock.h"

#define STOP_WAIT_MS 5000

typedef struct {
    hs_http_server *server;
    hs_pprof_routes *routes;
    hs_profile_source source;
    hs_agent_thread thread;
    JNIEnv *jni;            /* the serving thread's, while it runs */
    bool token;             /* a token is required */
    bool stuck;             /* the thread did not stop in time: nothing is freed */
    int kept_port;          /* the port http=HOST:0 first got (0: none yet), for kept_host */
    char kept_host[256];
} http_export_state;

static http_export_state H;

/* --- the profile source ---------------------------------------------------------------------- */

/* A delta's start: the allocation weights then, and when. */
typedef struct {
    uint64_t *fp;
    uint32_t n;
    int64_t nanos;
} baseline;

static bool serving_phase(hs_agent *agent) {
    int phase = atomic_load(&agent->phase);
    return agent->samples && (phase == HS_PHASE_RUNNING || phase == HS_PHASE_PAUSED);
}

static void *mark(void *ctx) {
    hs_agent *agent = ctx;
    baseline *b = calloc(1, sizeof *b);
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    if (!b || !serving_phase(agent) || !(b->fp = hs_snapshot_read_weights(&src, &b->n))) {
        free(b);
        return NULL;
    }
    b->nanos = hs_wall_nanos();
    return b;
}

static void release(void *ctx, void *p) {
    (void)ctx;
    baseline *b = p;
    if (b) free(b->fp);
    free(b);
}

/* How a served profile is encoded: a format of the option table, Go's legacy text, or the
 * text report. */
typedef struct {
    hs_agent *agent;
    hs_export_format format;
    hs_snapshot_live live; /* the snapshot fills it before the encoder runs (the report) */
} encoding;

static int encode(const hs_profile *p, void *ctx, uint8_t **out, size_t *len) {
    encoding *e = ctx;
    if (e->format == HS_EXPORT_PPROF || e->format == HS_EXPORT_HTML)
        return hs_profile_encode_format(e->format == HS_EXPORT_HTML ? HS_FORMAT_HTML
                                                                    : HS_FORMAT_PPROF,
                                        hs_metric_name(e->agent->opts.collapsed), p, out, len);
    if (e->format == HS_EXPORT_LEGACY) return hs_legacy_heap_encode(p, out, len);
    hs_report_options o;
    hs_report_options_defaults(&o);
    hs_text text = {0};
    if (hs_report_of_agent(e->agent, p, &e->live, &o, &text) != 0) {
        hs_text_free(&text);
        return -1;
    }
    *out = (uint8_t *)text.data;
    *len = text.len;
    return 0;
}

/* The profile's comment on what its values cover. */
static const char *served_what(const hs_export_profile *what) {
    if (what->gc)
        return "served over HTTP with gc=1: alloc values cover the whole run; inuse as of a "
               "full collection forced for this request";
    if (what->gc_shared)
        return "served over HTTP with gc=1: alloc values cover the whole run; inuse as of the "
               "last GC (a full collection forced for a gc=1 request less than 5 s earlier "
               "stands for this one)";
    return "served over HTTP: alloc values cover the whole run; inuse as of the last GC";
}

/* A delta's request: the allocation since b, in use as of the last GC. */
static int delta_request(hs_agent *agent, baseline *b, hs_snapshot_request *req,
                         uint64_t **now_fp) {
    uint32_t n = 0;
    if (!serving_phase(agent)) return -1;
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    *now_fp = hs_snapshot_read_weights(&src, &n);
    if (!*now_fp || !hs_snapshot_extend_weights(&b->fp, &b->n, n)) {
        free(*now_fp);
        *now_fp = NULL;
        hs_warn("out of memory while building a profile to serve");
        return -1;
    }
    req->alloc_fp = *now_fp;
    req->base_fp = b->fp;
    req->nbuckets = n;
    req->time_nanos = b->nanos;
    req->duration_nanos = hs_wall_nanos() - b->nanos;
    req->what = "delta served over HTTP (?seconds=): alloc values cover the request's seconds "
                "only (time_nanos, duration_nanos); inuse as of the last GC";
    return 0;
}

static int build(void *ctx, const hs_export_profile *what, uint8_t **out, size_t *len) {
    hs_agent *agent = ctx;
    /* ?gc=1: on this agent thread, outside every lock, before the snapshot */
    if (what->gc && (!serving_phase(agent) ||
                     hs_live_force_collection(&agent->live, H.jni, HS_LIVE_FORCED_GC_WAIT_MS) != 0))
        return -1;
    encoding *e = calloc(1, sizeof *e); /* the live facts are large for the thread's stack */
    if (!e) return -1;
    *e = (encoding){.agent = agent, .format = what->format};
    hs_snapshot_request req = {.live = HS_LIVE_NOW, .default_type = what->default_type,
                               .live_out = &e->live,
                               .what = served_what(what)};
    uint64_t *now_fp = NULL;
    int rc = what->baseline ? delta_request(e->agent, what->baseline, &req, &now_fp) : 0;
    if (rc == 0) rc = hs_dumps_encode(e->agent, H.jni, &req, encode, e, out, len);
    free(now_fp);
    free(e);
    return rc;
}

/* --- opening --------------------------------------------------------------------------------- */

/* Reads the token file into the server. 0, or -1 (logged, the token never quoted). */
static int load_token(const char *path) {
    char text[HS_HTTP_AUTH_MAX + 2], why[HS_PATH_MAX + 160];
    size_t n = 0, len = 0;
    if (hs_read_secret_file(path, text, sizeof text, &n, why, sizeof why) == 0)
        len = hs_http_token_from_text(text, n, why, sizeof why);
    int rc = 0;
    if (len == 0) {
        hs_error("bad option 'http_token=@%s': %s", path, why);
        rc = -1;
    } else if (hs_http_server_set_token(H.server, text, len) != 0) {
        hs_error("out of memory reading http_token=");
        rc = -1;
    }
    explicit_bzero(text, sizeof text);
    return rc;
}

/* Nobody will serve: the socket is closed, so clients are refused rather than left waiting. */
static void close_server(void) {
    hs_http_server_close(H.server);
    hs_pprof_routes_destroy(H.routes);
    H.server = NULL;
    H.routes = NULL;
}

/* "HOST:PORT" as given ("[v6]:PORT"). */
static void shown_address(const hs_options *o, char *out, size_t len) {
    bool v6 = strchr(o->http_host, ':') != NULL;
    snprintf(out, len, "%s%s%s:%d", v6 ? "[" : "", o->http_host, v6 ? "]" : "", (int)o->http_port);
}

/* Binds o's address into H.server. Port 0 asks for the port this endpoint first got on
 * that host, when it is free, so that stop and start keep the address scrapers know. */
static int bind_server(const hs_options *o, char *err, size_t errlen) {
    bool sticky = o->http_port == 0 && H.kept_port && strcmp(H.kept_host, o->http_host) == 0;
    if (sticky && hs_http_server_open(o->http_host, H.kept_port, H.token, &H.server, err,
                                      errlen) == 0)
        return 0;
    if (hs_http_server_open(o->http_host, o->http_port, H.token, &H.server, err, errlen) != 0)
        return -1;
    if (sticky)
        hs_info("http: port %d, served before, is taken: serving on another", H.kept_port);
    else if (o->http_port == 0 && strlen(o->http_host) < sizeof H.kept_host) {
        H.kept_port = hs_http_server_port(H.server);
        snprintf(H.kept_host, sizeof H.kept_host, "%s", o->http_host);
    }
    return 0;
}

/* Binds o's address, reads its token, makes the routes: 0, or -1 (logged, nothing open). */
static int open_with(hs_agent *agent, const hs_options *o) {
    char err[512], shown[300];
    H.token = o->http_token_file[0] != '\0';
    if (bind_server(o, err, sizeof err) != 0) {
        shown_address(o, shown, sizeof shown);
        hs_error("bad option 'http=%s': %s", shown, err);
        return -1;
    }
    H.source = (hs_profile_source){.ctx = agent, .build = build, .mark = mark, .release = release};
    bool ok = !H.token || load_token(o->http_token_file + 1) == 0;
    if (ok && !(H.routes = hs_pprof_routes_create(&H.source))) {
        hs_error("out of memory setting up http=");
        ok = false;
    }
    /* the thread's monitor is made once: a later start (after stop) reuses it */
    if (!ok || (!H.thread.wake && hs_agent_thread_init(&H.thread, agent->jvmti, "heapsampler http") != 0)) {
        close_server();
        return -1;
    }
    /* With port 0 the port is news the user cannot guess: said at warn, the default level. */
    hs_log(o->http_port == 0 ? HS_LOG_WARN : HS_LOG_INFO,
           "http: serving /debug/pprof/ (heap, allocs, top) and /flamegraph on http://%s%s",
           hs_http_server_address(H.server), H.token ? " (bearer token required)" : "");
    return 0;
}

int hs_http_export_open(hs_agent *agent) {
    if (!agent->opts.http || H.server) return 0;
    return open_with(agent, &agent->opts);
}

/* --- serving --------------------------------------------------------------------------------- */

static void JNICALL serve_main(jvmtiEnv *jvmti, JNIEnv *jni, void *arg) {
    (void)arg;
    H.jni = jni;
    hs_http_handler handler = hs_pprof_routes_handler(H.routes);
    hs_http_server_run(H.server, &handler);
    H.jni = NULL;
    hs_agent_thread_exiting(&H.thread, jvmti);
}

/* Starts the serving thread; on failure closes the server. 0, or -1 (logged). */
static int start_thread(jvmtiEnv *jvmti, JNIEnv *jni, bool phase_ok) {
    if (phase_ok &&
        hs_agent_thread_start(&H.thread, jvmti, jni, "heapsampler http", serve_main, NULL) == 0)
        return 0;
    hs_warn("http: not serving in this run");
    close_server();
    return -1;
}

void hs_http_export_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    if (!H.server || H.thread.running) return;
    start_thread(jvmti, jni, atomic_load(&agent->phase) == HS_PHASE_RUNNING);
}

/* Does the endpoint now serving answer for o's address (its port, or any with port 0)? */
static bool serves_address(const hs_options *o) {
    char shown[300], bound[300];
    shown_address(o, shown, sizeof shown);
    if (o->http_port != 0) return strcmp(shown, hs_http_server_address(H.server)) == 0;
    snprintf(bound, sizeof bound, "%s", hs_http_server_address(H.server));
    char *colon = strrchr(bound, ':'), *wanted = strrchr(shown, ':');
    if (colon) *colon = '\0';
    if (wanted) *wanted = '\0';
    return strcmp(shown, bound) == 0;
}

int hs_http_export_open_running(hs_agent *agent, const hs_options *o, JNIEnv *jni) {
    if (H.stuck) {
        hs_error("http: the serving thread of the endpoint closed earlier never ended; no "
                 "other endpoint can be opened in this JVM");
        return -1;
    }
    if (H.server) {
        if (serves_address(o)) return 0;
        hs_error("http: already serving on %s; 'stop' closes it (then start,http=... opens "
                 "another)", hs_http_server_address(H.server));
        return -1;
    }
    if (open_with(agent, o) != 0) return -1;
    return start_thread(agent->jvmti, jni, true); /* sampling may be stopped: it serves anyway */
}

const char *hs_http_export_address(void) {
    return H.server && !H.stuck ? hs_http_server_address(H.server) : NULL;
}

void hs_http_export_stop(hs_agent *agent) {
    if (!H.server || H.stuck) return;
    hs_http_server_stop(H.server);
    if (H.thread.running && !hs_agent_thread_stop(&H.thread, agent->jvmti, STOP_WAIT_MS)) {
        hs_warn("http: the serving thread did not stop in time");
        H.stuck = true; /* it may still use the server: leave it to the process exit */
        return;
    }
    close_server();
}

size_t hs_http_export_status(char *buf, size_t len) {
    int n;
    if (!H.server || H.stuck) {
        n = snprintf(buf, len, "http: off\n");
    } else {
        hs_http_counters c = hs_http_server_counters(H.server);
        n = snprintf(buf, len, "http: serving on %s%s, %lu answered, %lu refused, %lu timed out, "
                     "%lu evicted\n", hs_http_server_address(H.server),
                     H.token ? " (bearer token required)" : "", c.answered, c.refused,
                     c.timed_out, c.evicted);
    }
    return n > 0 ? (size_t)n : 0;
}
