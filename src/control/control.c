/* control.c: the commands of a running agent (see control.h). */
#include "control/control.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control/command.h"
#include "control/dumps.h"
#include "output/file_output.h"
#include "control/http_export.h"
#include "output/json.h"
#include "control/push_export.h"
#include "live/live_tracker.h"
#include "base/log.h"
#include "output/profile_output.h"
#include "output/reply.h"
#include "output/report.h"
#include "control/report_facts.h"
#include "live/retention.h"
#include "sampling/sample_table.h"
#include "sampling/sampler_bias.h"
#include "control/sampling.h"
#include "sampling/stack_store.h"
#include "base/text.h"
#include "sampling/throttle.h"
#include "base/wall_clock.h"

/* Commands whose reply file was gone when they arrived (control.h). */
static atomic_ulong late_commands;

void hs_control_count_late(void) { atomic_fetch_add(&late_commands, 1); }

/* The interval sampling runs at, plainly: a start,interval= may have changed it since the
 * run began (each sample keeps the weight of the interval it was taken at). */
static void status_interval(hs_agent *agent, hs_bounded *out) {
    int64_t now = atomic_load(&agent->sampling_interval), began = agent->opts.interval;
    char size[32], began_size[32];
    hs_size_text((double)now, size, sizeof size);
    hs_size_text((double)began, began_size, sizeof began_size);
    if (now == began)
        hs_bounded_printf(out, "interval: %lld bytes (one sample per %s allocated, on average)\n",
                          (long long)now, size);
    else
        hs_bounded_printf(out, "interval: %lld bytes (one sample per %s allocated, on average; "
                          "the run began at %s: each sample is weighted for the interval it was "
                          "taken at, so the estimates span the change)\n",
                          (long long)now, size, began_size);
}

/* The exit profile's path, absolute (a relative file= is the JVM's working directory's). */
static void exit_profile_path(const hs_agent *agent, char *buf, size_t len) {
    char path[HS_PATH_MAX], err[HS_PATH_MAX + 256], cwd[HS_PATH_MAX];
    if (hs_expand_file_pattern(agent->opts.file, (long)getpid(), time(NULL), path, sizeof path,
                               err, sizeof err) != 0)
        snprintf(path, sizeof path, "%s", agent->output_path);
    bool relative = path[0] != '/' && getcwd(cwd, sizeof cwd);
    snprintf(buf, len, "%s%s%s", relative ? cwd : "", relative ? "/" : "", path);
}

size_t hs_control_exit_profile(const hs_agent *agent, char *buf, size_t len) {
    char path[2 * HS_PATH_MAX];
    exit_profile_path(agent, path, sizeof path);
    int n = snprintf(buf, len, "%s (written at exit; -oom, -peak and periodic files beside it; "
                     "file= chooses)", path);
    return n > 0 ? (size_t)n : 0;
}

/* status,json=true: the facts of the status lines as one object (schema: heapsampler(1)). */
static void status_json(hs_agent *agent, hs_text *out) {
    hs_json w;
    hs_json_begin(&w, out);
    hs_json_object(&w, NULL);
    char text[2 * HS_PATH_MAX + 512];
    hs_json_str(&w, "version", HEAPSAMPLER_VERSION);
    hs_json_str(&w, "state", hs_sampling_state_name(agent));
    hs_json_int(&w, "pid", (int64_t)getpid());
    hs_options_format(&agent->opts, text, sizeof text);
    hs_json_str(&w, "options", text);
    hs_json_int(&w, "interval_bytes", atomic_load(&agent->sampling_interval));
    hs_json_int(&w, "interval_start_bytes", agent->opts.interval);
    hs_counters *c = &agent->counters;
    hs_json_object(&w, "samples");
    hs_json_num(&w, "recorded", (double)hs_sample_table_samples(agent->samples));
    hs_json_num(&w, "dropped", (double)atomic_load(&c->dropped));
    hs_json_num(&w, "stack_walks_failed", (double)atomic_load(&c->stack_errors));
    hs_json_num(&w, "truncated", (double)atomic_load(&c->truncated));
    hs_json_end(&w);
    hs_live_status_info live;
    bool tracking = hs_live_status(&agent->live, &live) == 0;
    if (tracking) {
        hs_json_object(&w, "live");
        hs_json_int(&w, "tracked", live.tracked);
        hs_json_int(&w, "capacity", live.capacity);
        hs_json_int(&w, "one_in", (int64_t)1 << live.level);
        hs_json_end(&w);
    } else {
        hs_json_null(&w, "live");
    }
    if (tracking && live.last_gc.valid) {
        hs_json_object(&w, "heap");
        hs_json_num(&w, "used_bytes", (double)live.last_gc.used);
        hs_json_int(&w, "gc_epoch", live.last_gc.epoch);
        hs_json_num(&w, "last_gc_seconds_ago", (double)(hs_wall_nanos() - live.last_gc.time_nanos) / 1e9);
        hs_json_str(&w, "collector", live.gc_name);
        hs_json_str(&w, "source", live.heap_source);
        hs_json_end(&w);
    } else {
        hs_json_null(&w, "heap");
    }
    unsigned long written, failed;
    hs_dumps_counts(agent, &written, &failed);
    hs_json_object(&w, "dumps");
    hs_json_int(&w, "written", (int64_t)written);
    hs_json_int(&w, "failed", (int64_t)failed);
    hs_json_end(&w);
    exit_profile_path(agent, text, sizeof text);
    hs_json_str(&w, "exit_profile", text);
    hs_json_int(&w, "late_commands", (int64_t)atomic_load(&late_commands));
    hs_json_str(&w, "http", hs_http_export_address());
    hs_json_end(&w);
    hs_text_puts(out, "\n");
}

static void status_sampling(hs_agent *agent, hs_bounded *out) {
    hs_counters *c = &agent->counters;
    char options[HS_PATH_MAX + 512];
    hs_options_format(&agent->opts, options, sizeof options);
    hs_bounded_printf(out, "state: %s\n", hs_sampling_state_name(agent));
    hs_bounded_printf(out, "version: %s\n", HEAPSAMPLER_VERSION);
    hs_bounded_printf(out, "options: %s\n", options);
    status_interval(agent, out);
    hs_bounded_printf(out, "samples: %llu recorded, %llu dropped (tables full), %llu stack walks failed, "
              "%llu stacks truncated at depth=%d\n",
         (unsigned long long)hs_sample_table_samples(agent->samples),
         (unsigned long long)atomic_load(&c->dropped),
         (unsigned long long)atomic_load(&c->stack_errors),
         (unsigned long long)atomic_load(&c->truncated), agent->opts.depth);
    char bias[HS_SAMPLER_BIAS_NOTE_MAX];
    if (hs_sampler_bias_note_for(agent->java_version, bias, sizeof bias) > 0)
        hs_bounded_printf(out, "%s\n", bias);
}

static void status_live(hs_agent *agent, hs_bounded *out) {
    hs_live_status_info live;
    if (hs_live_status(&agent->live, &live) != 0) {
        hs_bounded_printf(out, "live: off%s\n", agent->opts.live ? " (tracking could not start)" : " (live=false)");
        return;
    }
    hs_bounded_printf(out, "live: %u objects tracked of %u (1 in %llu samples tracked), %u G1 humongous "
              "objects tracked by identity\n",
         live.tracked, live.capacity, 1ULL << live.level, live.humongous_tracked);
    const hs_liveness_state *l = &live.liveness;
    if (!live.liveness_supported && l->markings == 0)
        hs_bounded_printf(out, "liveness: %s markings cannot be told: in-use samples are unjudged (dump,gc=1 "
                  "judges them)\n", live.gc_name ? live.gc_name : "this collector's");
    else
        hs_bounded_printf(out, "liveness: %u complete markings seen, the last %s at GC epoch %u: samples "
                  "allocated before GC epoch %u are confirmed, later ones unjudged\n",
             l->markings, hs_marking_kind_name(l->last_kind), l->last_epoch, l->judged_before);
    const hs_live_history_entry *gc = &live.last_gc;
    if (!gc->valid) {
        hs_bounded_printf(out, "heap: no figure yet (gc %s, source %s)\n", live.gc_name ? live.gc_name : "unknown",
             live.heap_source ? live.heap_source : "none");
        return;
    }
    hs_bounded_printf(out, "heap: %llu bytes used after the last GC (GC %u, %.1f s ago; gc %s, source %s)\n",
         (unsigned long long)gc->used, gc->epoch,
         (double)(hs_wall_nanos() - gc->time_nanos) / 1e9, live.gc_name ? live.gc_name : "unknown",
         live.heap_source ? live.heap_source : "none");
}

size_t hs_control_status(hs_agent *agent, char *buf, size_t len) {
    hs_bounded out = {buf, len, 0};
    if (len > 0) buf[0] = '\0';
    status_sampling(agent, &out);
    status_live(agent, &out);
    size_t room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_throttle_format_status(agent->throttle, hs_throttle_clock_nanos(),
                                          room ? out.buf + out.need : NULL, room);
    room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_dumps_status(agent, room ? out.buf + out.need : NULL, room);
    char exit_profile[2 * HS_PATH_MAX + 128];
    hs_control_exit_profile(agent, exit_profile, sizeof exit_profile);
    hs_bounded_printf(&out, "exit profile: %s\n", exit_profile);
    hs_bounded_printf(&out, "late commands: %lu (arrived after the command that sent them had "
                      "given up; not run)\n", (unsigned long)atomic_load(&late_commands));
    room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_http_export_status(room ? out.buf + out.need : NULL, room);
    room = out.need < out.cap ? out.cap - out.need : 0;
    out.need += hs_push_export_status(room ? out.buf + out.need : NULL, room);
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
        hs_dumps_check_dir(path, err, sizeof err) == 0)
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

/* The status text (lines, or JSON with json=true) into t. 0, or -1 (logged). */
static int status_text(hs_agent *agent, const hs_command *cmd, hs_text *t) {
    if (cmd->json) {
        status_json(agent, t);
    } else {
        char text[8192];
        size_t need = hs_control_status(agent, text, sizeof text);
        if (need >= sizeof text) hs_warn("status: %zu bytes of status cut", need - sizeof text + 1);
        hs_text_puts(t, text);
    }
    if (!t->failed) return 0;
    hs_error("status: out of memory writing the answer");
    return -1;
}

static jint run_status(hs_agent *agent, const hs_command *cmd, answer *a) {
    hs_text text = {0};
    jint rc = status_text(agent, cmd, &text) == 0 ? JNI_OK : JNI_ERR;
    char path[HS_PATH_MAX], err[HS_PATH_MAX + 256];
    if (rc == JNI_OK && !cmd->has_file) {
        answer_text(a, hs_text_str(&text));
    } else if (rc == JNI_OK && command_path(cmd, path, sizeof path) != 0) {
        rc = JNI_ERR;
    } else if (rc == JNI_OK && hs_write_file_atomic(path, text.data, text.len, err, sizeof err) != 0) {
        hs_error("%s", err);
        rc = JNI_ERR;
    } else if (rc == JNI_OK && a->to_reply) {
        answer_line(a, "status written to %s", path);
    }
    hs_text_free(&text);
    return rc;
}

/* --- the report (top, dump,format=text) ------------------------------------------------- */

static jint run_top(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    if (cmd->gc && hs_live_force_collection(&agent->live, jni, HS_LIVE_FORCED_GC_WAIT_MS) != 0)
        return JNI_ERR; /* it said why */
    hs_snapshot_live live;
    hs_profile *p = hs_dumps_build_now(agent, jni, &live);
    if (!p) return JNI_ERR; /* it said why */
    hs_text report = {0};
    int rc = hs_report_of_agent(agent, p, &live, &cmd->report, &report);
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
        return hs_profile_encode_format(formats[e->format], hs_metric_name(e->metric), p, out, len);
    }
    hs_report_options o;
    hs_report_options_defaults(&o);
    o.rows = HS_REPORT_ROWS_MAX; /* a file is read with a pager: every site up to the cap */
    o.width = HS_REPORT_WIDTH_UNLIMITED; /* and never cut */
    hs_text text = {0};
    if (hs_report_of_agent(e->agent, p, &e->live, &o, &text) != 0) {
        hs_text_free(&text);
        return -1;
    }
    *out = (uint8_t *)text.data;
    *len = text.len;
    return 0;
}

/* Each pause of the walk of `dump,paths=` and `paths`: budget= or the paths_budget= option. */
static int64_t paths_budget_ms(const hs_agent *agent, const hs_command *cmd) {
    return cmd->paths_budget_ms ? cmd->paths_budget_ms : agent->opts.paths_budget_ms;
}

/* The answer's hs_bounded on what the walk reached, how much of the heap it visited, whether
 * the budget ended it. */
static void answer_paths_figures(answer *a, const hs_retention_figures *fig) {
    char line[1024];
    hs_retention_format_figures(fig, line, sizeof line);
    answer_line(a, "paths: %s", line);
    for (uint32_t i = 0; i < fig->nsites; i++) {
        hs_retention_format_site(fig, i, line, sizeof line);
        answer_line(a, "paths: %s", line);
    }
}

/* The retention paths beside the dump just written (retention.h), or into paths_out=. */
static jint run_dump_paths(hs_agent *agent, JNIEnv *jni, const hs_command *cmd,
                           const char *dump_path, answer *a) {
    char path[HS_PATH_MAX];
    int fd = -1;
    if (cmd->paths_out[0]) {
        if ((fd = open_out("paths_out", cmd->paths_out)) < 0) return JNI_ERR;
        snprintf(path, sizeof path, "%s", cmd->paths_out);
    } else if (hs_retention_path(dump_path, path, sizeof path) != 0) {
        hs_error("paths: '%s-paths' is too long a path", dump_path);
        return JNI_ERR;
    }
    hs_retention_figures *fig = calloc(1, sizeof *fig);
    hs_retention_source src = hs_agent_retention_source(agent);
    hs_profile *prof = fig ? hs_retention_build(&src, jni, cmd->paths,
                                                paths_budget_ms(agent, cmd), fig)
                           : NULL;
    int rc = -1;
    if (prof && fd >= 0) {
        rc = hs_write_profile_fd(prof, fd, cmd->paths_out);
        fd = -1; /* closed by the write */
    } else if (prof) {
        rc = hs_write_profile_file(prof, path);
    }
    if (fd >= 0) close(fd);
    if (rc == 0) {
        answer_line(a, "paths written to %s", path);
        answer_paths_figures(a, fig);
    }
    hs_profile_free(prof);
    free(fig);
    return rc == 0 ? JNI_OK : JNI_ERR;
}

static jint run_dump(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    dump_encoding enc = {.agent = agent, .format = cmd->format, .metric = agent->opts.collapsed};
    hs_dump_request req = {.path = cmd->has_file ? cmd->options.file : NULL, .fd = -1,
                           .out_name = cmd->out, .live_out = &enc.live,
                           .since_mark = cmd->since};
    if (cmd->format != HS_DUMP_STARTUP_FORMAT) {
        req.encode = encode_dump;
        req.ctx = &enc;
    }
    if (cmd->gc && hs_live_force_collection(&agent->live, jni, HS_LIVE_FORCED_GC_WAIT_MS) != 0)
        return JNI_ERR; /* it said why */
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
    hs_retention_source src = hs_agent_retention_source(agent);
    hs_profile *prof = hs_retention_build(&src, jni, cmd->paths, paths_budget_ms(agent, cmd), NULL);
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

/* The endpoint options a start applied become the agent's (status, a later start). */
static void keep_http_options(hs_agent *agent, const hs_options *o) {
    agent->opts.http = o->http;
    agent->opts.http_port = o->http_port;
    memcpy(agent->opts.http_host, o->http_host, sizeof agent->opts.http_host);
    memcpy(agent->opts.http_token_file, o->http_token_file, sizeof agent->opts.http_token_file);
}

/* The endpoint part of start: opens the endpoint of the options (http= of the command, or
 * of the startup options after a stop closed it), or closes it with http=off. Sets
 * *opened when this call opened it. 0, or -1 (logged). */
static int start_http(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, bool *opened) {
    *opened = false;
    if (!cmd->options.http) {
        if (cmd->has_http) hs_http_export_stop(agent); /* http=off */
        return 0;
    }
    *opened = !hs_http_export_address();
    if (hs_http_export_open_running(agent, &cmd->options, jni) != 0) {
        *opened = false;
        return -1;
    }
    return 0;
}

/* `start` while sampling runs changes what it is given in place: interval= (sampling
 * paused for the moment the change takes), rate=, log=, http=. Nothing tracked is
 * released; only `stop` does that. */
static jint run_start(hs_agent *agent, JNIEnv *jni, const hs_command *cmd, answer *a) {
    char why[256];
    bool running = atomic_load(&agent->phase) == HS_PHASE_RUNNING, opened;
    if (running && !cmd->has_http && !cmd->has_interval && !cmd->has_rate &&
        !cmd->has_log) {
        hs_error("start: sampling is already running (give interval=, rate=, log= or http= to "
                 "change them while it runs)");
        return JNI_ERR;
    }
    if (start_http(agent, jni, cmd, &opened) != 0) return JNI_ERR; /* sampling unchanged */
    int64_t interval = start_interval(agent, cmd);
    int rc = !running ? hs_sampling_resume(agent, agent->jvmti, interval, cmd->has_interval, why,
                                           sizeof why)
             : cmd->has_interval ? hs_sampling_change_interval(agent, agent->jvmti, interval, why,
                                                               sizeof why)
                                 : 0; /* rate=, log=, http= only: sampling untouched */
    if (rc != 0) {
        hs_error("start: %s", why);
        if (opened) hs_http_export_stop(agent);
        return JNI_ERR;
    }
    if (cmd->has_http) keep_http_options(agent, &cmd->options);
    hs_log_set_level(cmd->options.log);
    agent->opts.log = cmd->options.log;
    if (cmd->has_rate) { /* checked by check_rate before sampling was turned on */
        hs_throttle_set_rate(agent->throttle, cmd->options.rate, cmd->options.rate_period_ns);
        agent->opts.rate = cmd->options.rate;
        agent->opts.rate_period_ns = cmd->options.rate_period_ns;
    }
    if (!running) hs_dumps_start(agent, agent->jvmti, jni); /* periodic profiles again */
    if (running)
        answer_line(a, "sampling running; changed while it runs: %s%s%s%s(tracked objects kept)",
                    cmd->has_interval ? "interval " : "", cmd->has_rate ? "rate " : "",
                    cmd->has_log ? "log " : "",
                    cmd->has_http ? "http " : "");
    else
        answer_text(a, "sampling started");
    const char *address = hs_http_export_address();
    if (address) answer_line(a, "http: serving on http://%s/debug/pprof/", address);
    else if (cmd->has_http) answer_text(a, "http: closed");
    return JNI_OK;
}

static jint run_stop(hs_agent *agent, JNIEnv *jni, answer *a) {
    char why[256];
    bool serving = hs_http_export_address() != NULL;
    hs_http_export_stop(agent); /* the profiler off: no endpoint either (start opens it again) */
    if (atomic_load(&agent->phase) == HS_PHASE_RUNNING)
        hs_dumps_stop_periodic(agent); /* no periodic files while the profiler is off */
    if (hs_sampling_pause(agent, agent->jvmti, jni, why, sizeof why) != 0) {
        hs_error("stop: %s", why);
        return JNI_ERR;
    }
    answer_text(a, "sampling stopped");
    if (serving) answer_text(a, "http: closed");
    return JNI_OK;
}

static jint run_mark(hs_agent *agent, answer *a) {
    unsigned id;
    if (hs_dumps_mark(agent, &id) != 0) return JNI_ERR; /* it said why */
    answer_line(a, "mark: %u", id);
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
    case HS_CMD_MARK: return run_mark(agent, a);
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
        if ((fd = hs_reply_open("reply", reply, err, sizeof err)) == HS_REPLY_GONE) {
            hs_control_count_late(); /* nobody waits for it: not run, not a word */
            return JNI_ERR;
        }
        if (fd < 0) {
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
