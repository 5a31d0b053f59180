/* control.c: the commands of a running agent (see control.h). */
#include "control.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "dumps.h"
#include "file_output.h"
#include "http_export.h"
#include "live_tracker.h"
#include "log.h"
#include "profile_output.h"
#include "reply.h"
#include "report.h"
#include "retention.h"
#include "sample_table.h"
#include "sampling.h"
#include "stack_store.h"
#include "suspects.h"
#include "text.h"
#include "throttle.h"
#include "wall_clock.h"

/* Bounded appends into the status buffer, counting what did not fit (like snprintf). */
typedef struct {
    char *buf;
    size_t cap, need;
} lines;

static void line(lines *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(lines *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = out->need < out->cap ? out->cap - out->need : 0;
    int n = vsnprintf(room ? out->buf + out->need : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) out->need += (size_t)n;
}

static void status_sampling(hs_agent *agent, lines *out) {
    hs_counters *c = &agent->counters;
    char options[HS_PATH_MAX + 512];
    hs_options_format(&agent->opts, options, sizeof options);
    line(out, "state: %s\n", hs_sampling_state_name(agent));
    line(out, "version: %s\n", HEAPSAMPLER_VERSION);
    line(out, "options: %s\n", options);
    line(out, "interval: %lld bytes (estimates are scaled to interval=%lld)\n",
         (long long)atomic_load(&agent->sampling_interval), (long long)agent->opts.interval);
    line(out, "samples: %llu recorded, %llu dropped (tables full), %llu stack walks failed, "
              "%llu stacks truncated at depth=%d\n",
         (unsigned long long)hs_sample_table_samples(agent->samples),
         (unsigned long long)atomic_load(&c->dropped),
         (unsigned long long)atomic_load(&c->stack_errors),
         (unsigned long long)atomic_load(&c->truncated), agent->opts.depth);
}

static void status_live(hs_agent *agent, lines *out) {
    hs_live_status_info live;
    if (hs_live_status(agent, &live) != 0) {
        line(out, "live: off%s\n", agent->opts.live ? " (tracking could not start)" : " (live=false)");
        return;
    }
    line(out, "live: %u objects tracked of %u (1 in %llu samples tracked), %u G1 humongous "
              "objects tracked by identity\n",
         live.tracked, live.capacity, 1ULL << live.level, live.humongous_tracked);
    const hs_live_history_entry *gc = &live.last_gc;
    if (!gc->valid) {
        line(out, "heap: no figure yet (gc %s, source %s)\n", live.gc_name ? live.gc_name : "unknown",
             live.heap_source ? live.heap_source : "none");
        return;
    }
    line(out, "heap: %llu bytes used after the last GC (GC %u, %.1f s ago; gc %s, source %s)\n",
         (unsigned long long)gc->used, gc->epoch,
         (double)(hs_wall_nanos() - gc->time_nanos) / 1e9, live.gc_name ? live.gc_name : "unknown",
         live.heap_source ? live.heap_source : "none");
}

size_t hs_control_status(hs_agent *agent, char *buf, size_t len) {
    lines out = {buf, len, 0};
    if (len > 0) buf[0] = '\0';
    status_sampling(agent, &out);
    status_live(agent, &out);
    size_t room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_throttle_format_status(agent->throttle, hs_throttle_clock_nanos(),
                                          room ? out.buf + out.need : NULL, room);
    room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_dumps_status(agent, room ? out.buf + out.need : NULL, room);
    room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_http_export_status(room ? out.buf + out.need : NULL, room);
    return out.need;
}

/* --- the answer ------------------------------------------------------------------------ */

/* Where a command's answer goes: into reply= (built here, written at the end), or the
 * JVM's stdout, "heapsampler: " before each line. */
typedef struct {
    bool to_reply;
    hs_text text;
} answer;

static void answer_text(answer *a, const char *text) {
    if (a->to_reply) {
        hs_text_puts(&a->text, text);
        if (*text && text[strlen(text) - 1] != '\n') hs_text_puts(&a->text, "\n");
        return;
    }
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        printf("heapsampler: %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    fflush(stdout);
}

static void answer_line(answer *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void answer_line(answer *a, const char *fmt, ...) {
    char text[HS_PATH_MAX + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    answer_text(a, text);
}

/* Expands a command's file= now (%p, %t) and checks its directory. 0 or -1 (logged). */
static int command_path(const hs_command *cmd, char *path, size_t len) {
    char err[HS_PATH_MAX + 256];
    if (hs_expand_file_pattern(cmd->options.file, (long)getpid(), time(NULL), path, len, err,
                               sizeof err) == 0 &&
        hs_check_output_dir(path, err, sizeof err) == 0)
        return 0;
    hs_error("bad command: file=%s: %s", cmd->options.file, err);
    return -1;
}

/* Opens out= or paths_out= (reply.h). The fd, or -1 (logged: the command's own error). */
static int open_out(const char *what, const char *path) {
    char err[HS_PATH_MAX + 256];
    int fd = hs_reply_open(what, path, err, sizeof err);
    if (fd < 0) hs_error("%s", err);
    return fd;
}

static jint run_status(hs_agent *agent, const hs_command *cmd, answer *a) {
    char text[8192];
    size_t need = hs_control_status(agent, text, sizeof text);
    if (need >= sizeof text) hs_warn("status: %zu bytes of status cut", need - sizeof text + 1);
    if (!cmd->has_file) {
        answer_text(a, text);
        return JNI_OK;
    }
    char path[HS_PATH_MAX], err[HS_PATH_MAX + 256];
    if (command_path(cmd, path, sizeof path) != 0) return JNI_ERR;
    if (hs_write_file_atomic(path, text, strlen(text), err, sizeof err) != 0) {
        hs_error("%s", err);
        return JNI_ERR;
    }
    if (a->to_reply) answer_line(a, "status written to %s", path);
    return JNI_OK;
}

/* --- the report (top, dump,format=text) ------------------------------------------------- */

/* The rate cap in a few words, for the report's header. */
static void rate_cap_text(hs_agent *agent, char *out, size_t len, double *mean_weight) {
    *mean_weight = 1;
    if (!agent->throttle) {
        snprintf(out, len, "off");
        return;
    }
    hs_throttle_stats st;
    hs_throttle_stats_read(agent->throttle, hs_throttle_clock_nanos(), &st);
    if (st.kept > 0 && st.weight_total > 0) *mean_weight = st.weight_total / (double)st.kept;
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
    double mean_weight;
    rate_cap_text(agent, out->rate_cap, sizeof out->rate_cap, &mean_weight);
    f->weight_multiplier = mean_weight;
    if (hs_live_status(agent, &status) == 0) {
        f->gc_name = status.gc_name;
        f->heap_source = status.heap_source;
        f->last_gc_nanos = status.last_gc.time_nanos; /* 0: no GC swept yet */
        f->gc_count = atomic_load(&agent->gc_epoch);
        f->weight_multiplier = mean_weight * (double)(1ULL << status.level);
    }
    f->interval = agent->opts.interval;
    f->interval_now = atomic_load(&agent->sampling_interval);
    f->rate_cap = out->rate_cap;
    for (uint32_t i = 0; i < live->nsuspects && i < HS_REPORT_MAX_SUSPECTS; i++) {
        const hs_growth_site *g = &live->suspects[i];
        hs_report_suspect *s = &f->suspects[f->nsuspects++];
        hs_suspect_site_key(agent, g->bucket, s->key, sizeof s->key);
        s->growth_bytes = g->growth_bytes;
        s->growth_sigma = g->growth_sigma;
        s->gcs = g->last_epoch - g->first_epoch;
    }
}

int hs_control_report(hs_agent *agent, const hs_profile *p, const hs_snapshot_live *live,
                      const hs_report_options *o, hs_text *out) {
    report_facts facts;
    fill_facts(agent, live, &facts);
    return hs_report_write(p, &facts.facts, o, out);
}

static jint run_top(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    hs_snapshot_live live;
    hs_profile *p = hs_dumps_build_now(agent, jni, &live);
    if (!p) return JNI_ERR; /* it said why */
    hs_text report = {0};
    int rc = hs_control_report(agent, p, &live, &cmd->report, &report);
    hs_profile_free(p);
    if (rc == 0) answer_text(a, hs_text_str(&report));
    else hs_error("top: out of memory writing the report");
    hs_text_free(&report);
    return rc == 0 ? JNI_OK : JNI_ERR;
}

/* --- dump ------------------------------------------------------------------------------ */

/* How `dump,format=` encodes: a format of the option table, or the report. */
typedef struct {
    hs_agent *agent;
    hs_dump_format format;
    hs_metric metric;
    hs_snapshot_live live; /* the snapshot fills it before the encoder runs */
} dump_encoding;

static int encode_dump(const hs_profile *p, void *ctx, uint8_t **out, size_t *len) {
    dump_encoding *e = ctx;
    if (e->format != HS_DUMP_TEXT) {
        static const hs_format formats[] = {[HS_DUMP_PPROF] = HS_FORMAT_PPROF,
                                            [HS_DUMP_COLLAPSED] = HS_FORMAT_COLLAPSED,
                                            [HS_DUMP_HTML] = HS_FORMAT_HTML};
        return hs_profile_encode_format(formats[e->format], e->metric, p, out, len);
    }
    hs_report_options o;
    hs_report_options_defaults(&o);
    o.rows = HS_REPORT_ROWS_MAX; /* a file is read with a pager: every site up to the cap */
    o.width = 160;
    hs_text text = {0};
    if (hs_control_report(e->agent, p, &e->live, &o, &text) != 0) {
        hs_text_free(&text);
        return -1;
    }
    *out = (uint8_t *)text.data;
    *len = text.len;
    return 0;
}

/* How long `dump,paths=` and `paths` may stop the world for their walk. */
#define PATHS_TIME_BUDGET_MS 10000

/* The retention paths beside the dump just written (retention.h), or into paths_out=. */
static jint run_dump_paths(hs_agent *agent, JNIEnv *jni, const hs_command *cmd,
                           const char *dump_path, answer *a) {
    char path[HS_PATH_MAX];
    if (cmd->paths_out[0]) {
        int fd = open_out("paths_out", cmd->paths_out);
        if (fd < 0) return JNI_ERR;
        hs_profile *prof = hs_retention_build(agent, jni, cmd->paths, PATHS_TIME_BUDGET_MS);
        int rc = prof ? hs_write_profile_fd(prof, fd, cmd->paths_out) : -1;
        if (!prof) close(fd);
        hs_profile_free(prof);
        if (rc != 0) return JNI_ERR;
        snprintf(path, sizeof path, "%s", cmd->paths_out);
    } else {
        if (hs_retention_path(dump_path, path, sizeof path) != 0) {
            hs_error("paths: '%s-paths' is too long a path", dump_path);
            return JNI_ERR;
        }
        if (hs_retention_write(agent, jni, path, cmd->paths, PATHS_TIME_BUDGET_MS) != 0)
            return JNI_ERR;
    }
    answer_line(a, "paths written to %s", path);
    return JNI_OK;
}

static jint run_dump(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    dump_encoding enc = {.agent = agent, .format = cmd->format, .metric = agent->opts.collapsed};
    hs_dump_request req = {.path = cmd->has_file ? cmd->options.file : NULL, .fd = -1,
                           .out_name = cmd->out, .live_out = &enc.live};
    if (cmd->format != HS_DUMP_STARTUP_FORMAT) {
        req.encode = encode_dump;
        req.ctx = &enc;
    }
    if (cmd->out[0] && (req.fd = open_out("out", cmd->out)) < 0) return JNI_ERR;
    char path[HS_PATH_MAX];
    if (hs_dumps_write_request(agent, jni, &req, path, sizeof path) != 0)
        return JNI_ERR; /* it said why */
    answer_line(a, "dump written to %s", path);
    return cmd->paths ? run_dump_paths(agent, jni, cmd, path, a) : JNI_OK;
}

/* --- paths ----------------------------------------------------------------------------- */

static jint run_paths(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    int fd = cmd->out[0] ? open_out("out", cmd->out) : -1;
    if (cmd->out[0] && fd < 0) return JNI_ERR;
    hs_profile *prof = hs_retention_build(agent, jni, cmd->paths, PATHS_TIME_BUDGET_MS);
    if (!prof) {
        if (fd >= 0) close(fd);
        return JNI_ERR; /* it said why */
    }
    hs_text text = {0};
    int rc = hs_report_paths(prof, &text);
    if (rc != 0) hs_error("paths: out of memory writing the paths");
    if (fd >= 0 && hs_write_profile_fd(prof, fd, cmd->out) != 0) rc = -1;
    hs_profile_free(prof);
    if (rc == 0) {
        answer_text(a, hs_text_str(&text));
        if (cmd->out[0]) answer_line(a, "paths written to %s", cmd->out);
    }
    hs_text_free(&text);
    return rc == 0 ? JNI_OK : JNI_ERR;
}

/* `start` without interval= keeps the interval sampling last ran at. */
static int64_t start_interval(hs_agent *agent, const hs_command *cmd) {
    return cmd->has_interval ? cmd->options.interval : atomic_load(&agent->sampling_interval);
}

static jint run_start(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    char why[256];
    if (hs_sampling_resume(agent, agent->jvmti, start_interval(agent, cmd), why, sizeof why) != 0) {
        hs_error("start: %s", why);
        return JNI_ERR;
    }
    hs_log_set_level(cmd->options.log);
    agent->opts.log = cmd->options.log;
    if (cmd->has_rate) { /* checked by check_rate before sampling was turned on */
        hs_throttle_set_rate(agent->throttle, cmd->options.rate, cmd->options.rate_period_ns);
        agent->opts.rate = cmd->options.rate;
        agent->opts.rate_period_ns = cmd->options.rate_period_ns;
    }
    hs_dumps_start(agent, agent->jvmti, jni); /* periodic profiles again, if dump_period= */
    answer_text(a, "sampling started");
    return JNI_OK;
}

static jint run_stop(hs_agent *agent, JNIEnv *jni, answer *a) {
    char why[256];
    if (atomic_load(&agent->phase) == HS_PHASE_RUNNING)
        hs_dumps_stop_periodic(agent); /* no periodic files while the profiler is off */
    if (hs_sampling_pause(agent, agent->jvmti, jni, why, sizeof why) != 0) {
        hs_error("stop: %s", why);
        return JNI_ERR;
    }
    answer_text(a, "sampling stopped");
    return JNI_OK;
}

static jint run_help(answer *a) {
    char text[8192];
    hs_command_help(text, sizeof text);
    if (a->to_reply) {
        answer_text(a, text);
    } else {
        fputs(text, stdout);
        fflush(stdout);
    }
    return JNI_OK;
}

/* Interval changes are weighted against the startup interval (estimate.h); intervals
 * more than 2^16 times apart would need weights beyond the tables' fixed point. */
static int check_interval(const hs_agent *agent, int64_t interval) {
    int64_t base = agent->opts.interval;
    int64_t low = base < interval ? base : interval, high = base < interval ? interval : base;
    if (high == low || (low > 0 && high / low < 65536)) return 0;
    hs_error("bad command: interval=%lld is too far from the startup interval %lld; accepted: "
             "within a factor of 65536 of it, and 0 only if the run started at 0",
             (long long)interval, (long long)base);
    return -1;
}

/* A new rate needs the cap the run started with: with rate=0 there is none to change, and
 * the cap cannot be turned off midway (the weights already handed out assume it). */
static int check_rate(const hs_agent *agent, const hs_command *cmd) {
    if (!cmd->has_rate || (agent->throttle && cmd->options.rate > 0)) return 0;
    hs_error("bad command: rate=%lld: %s; accepted: N/s or N/m, N from 1 to 1000000, when the "
             "run started with a cap",
             (long long)cmd->options.rate,
             agent->throttle ? "the cap cannot be turned off while the JVM runs"
                             : "the run started with rate=0 (no cap)");
    return -1;
}

static jint run_command(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    switch (cmd->kind) {
    case HS_CMD_DUMP: return run_dump(agent, jni, cmd, a);
    case HS_CMD_START:
        return check_interval(agent, start_interval(agent, cmd)) == 0 && check_rate(agent, cmd) == 0
                   ? run_start(agent, jni, cmd, a)
                   : JNI_ERR;
    case HS_CMD_STOP: return run_stop(agent, jni, a);
    case HS_CMD_STATUS: return run_status(agent, cmd, a);
    case HS_CMD_HELP: return run_help(a);
    case HS_CMD_TOP: return run_top(agent, jni, cmd, a);
    case HS_CMD_PATHS: return run_paths(agent, jni, cmd, a);
    }
    return JNI_ERR;
}

static jint parse_and_run(hs_agent *agent, JNIEnv *jni, const char *text, answer *a) {
    hs_command cmd;
    char err[HS_PATH_MAX + 1024];
    if (hs_command_parse(text, &agent->opts, &cmd, err, sizeof err) != 0) {
        hs_error("%s", err);
        return JNI_ERR;
    }
    pthread_mutex_lock(&agent->lifecycle_lock);
    jint rc;
    int phase = atomic_load(&agent->phase);
    if (phase == HS_PHASE_RUNNING || phase == HS_PHASE_PAUSED) {
        rc = run_command(agent, jni, &cmd, a);
    } else {
        hs_error("command '%.64s' ignored: the agent is %s", text, hs_sampling_state_name(agent));
        rc = JNI_ERR;
    }
    pthread_mutex_unlock(&agent->lifecycle_lock);
    return rc;
}

jint hs_control_run(hs_agent *agent, JNIEnv *jni, const char *text) {
    char reply[HS_PATH_MAX];
    answer a = {0};
    int fd = -1;
    if (hs_command_find_item(text, "reply", reply, sizeof reply)) {
        char err[HS_PATH_MAX + 256];
        if ((fd = hs_reply_open("reply", reply, err, sizeof err)) < 0) {
            hs_error("%s", err); /* nowhere else to say it */
            return JNI_ERR;
        }
        a.to_reply = true;
        hs_log_capture(&a.text);
    }
    jint rc = parse_and_run(agent, jni, text, &a);
    if (a.to_reply) {
        hs_log_capture(NULL);
        char err[HS_PATH_MAX + 256];
        if (hs_reply_answer(fd, rc != JNI_OK, hs_text_str(&a.text), err, sizeof err) != 0) {
            hs_error("reply file '%s': %s", reply, err);
            rc = JNI_ERR;
        }
    }
    hs_text_free(&a.text);
    return rc;
}
