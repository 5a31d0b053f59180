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
#include "live_tracker.h"
#include "log.h"
#include "profile_output.h"
#include "retention.h"
#include "sample_table.h"
#include "sampling.h"
#include "stack_store.h"
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
    line(out, "state: %s\n", hs_sampling_state_name(agent));
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
    const hs_liveness_state *l = &live.liveness;
    if (!live.liveness_supported && l->markings == 0)
        line(out, "liveness: %s markings cannot be told: in-use samples are unjudged (dump,gc=1 "
                  "judges them)\n", live.gc_name ? live.gc_name : "this collector's");
    else
        line(out, "liveness: %u complete markings seen, the last %s at GC epoch %u: samples "
                  "allocated before GC epoch %u are confirmed, later ones unjudged\n",
             l->markings, hs_marking_kind_name(l->last_kind), l->last_epoch, l->judged_before);
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
    return out.need;
}

/* Prints text on the JVM's stdout, "heapsampler: " before each line. */
static void print_answer(const char *text) {
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        printf("heapsampler: %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    fflush(stdout);
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

static jint run_status(hs_agent *agent, const hs_command *cmd) {
    char text[4096];
    size_t need = hs_control_status(agent, text, sizeof text);
    if (need >= sizeof text) hs_warn("status: %zu bytes of status cut", need - sizeof text + 1);
    if (!cmd->has_file) {
        print_answer(text);
        return JNI_OK;
    }
    char path[HS_PATH_MAX], err[HS_PATH_MAX + 256];
    if (command_path(cmd, path, sizeof path) != 0) return JNI_ERR;
    if (hs_write_file_atomic(path, text, strlen(text), err, sizeof err) != 0) {
        hs_error("%s", err);
        return JNI_ERR;
    }
    return JNI_OK;
}

/* How long `dump,paths=` may stop the world for its walk. */
#define PATHS_TIME_BUDGET_MS 10000

/* The retention paths beside the dump just written (retention.h). */
static jint run_paths(hs_agent *agent, JNIEnv *jni, const char *dump_path, unsigned sites) {
    char path[HS_PATH_MAX];
    if (hs_retention_path(dump_path, path, sizeof path) != 0) {
        hs_error("paths: '%s-paths' is too long a path", dump_path);
        return JNI_ERR;
    }
    if (hs_retention_write(agent, jni, path, sites, PATHS_TIME_BUDGET_MS) != 0) return JNI_ERR;
    char answer[HS_PATH_MAX + 32];
    snprintf(answer, sizeof answer, "paths written to %s", path);
    print_answer(answer);
    return JNI_OK;
}

/* How long dump,gc=1 waits for the sweeper to have swept the forced collection. */
#define FORCED_GC_SWEEP_WAIT_MS 5000

static jint run_dump(hs_agent *agent, JNIEnv *jni, const hs_command *cmd) {
    char path[HS_PATH_MAX];
    if (cmd->gc && hs_live_force_collection(agent, jni, FORCED_GC_SWEEP_WAIT_MS) != 0)
        return JNI_ERR; /* it said why */
    if (hs_dumps_write_now(agent, jni, cmd->has_file ? cmd->options.file : NULL, path,
                           sizeof path) != 0)
        return JNI_ERR; /* it said why */
    char answer[HS_PATH_MAX + 32];
    snprintf(answer, sizeof answer, "dump written to %s", path);
    print_answer(answer);
    return cmd->paths ? run_paths(agent, jni, path, cmd->paths) : JNI_OK;
}

/* `start` without interval= keeps the interval sampling last ran at. */
static int64_t start_interval(hs_agent *agent, const hs_command *cmd) {
    return cmd->has_interval ? cmd->options.interval : atomic_load(&agent->sampling_interval);
}

static jint run_start(hs_agent *agent, JNIEnv *jni, const hs_command *cmd) {
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
    print_answer("sampling started");
    return JNI_OK;
}

static jint run_stop(hs_agent *agent, JNIEnv *jni) {
    char why[256];
    if (atomic_load(&agent->phase) == HS_PHASE_RUNNING)
        hs_dumps_stop_periodic(agent); /* no periodic files while the profiler is off */
    if (hs_sampling_pause(agent, agent->jvmti, jni, why, sizeof why) != 0) {
        hs_error("stop: %s", why);
        return JNI_ERR;
    }
    print_answer("sampling stopped");
    return JNI_OK;
}

static jint run_help(void) {
    char text[2048];
    hs_command_help(text, sizeof text);
    fputs(text, stdout);
    fflush(stdout);
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

static jint run_command(hs_agent *agent, JNIEnv *jni, const hs_command *cmd) {
    switch (cmd->kind) {
    case HS_CMD_DUMP: return run_dump(agent, jni, cmd);
    case HS_CMD_START:
        return check_interval(agent, start_interval(agent, cmd)) == 0 && check_rate(agent, cmd) == 0
                   ? run_start(agent, jni, cmd)
                   : JNI_ERR;
    case HS_CMD_STOP: return run_stop(agent, jni);
    case HS_CMD_STATUS: return run_status(agent, cmd);
    case HS_CMD_HELP: return run_help();
    }
    return JNI_ERR;
}

jint hs_control_run(hs_agent *agent, JNIEnv *jni, const char *text) {
    hs_command cmd;
    char err[HS_PATH_MAX + 512];
    if (hs_command_parse(text, &agent->opts, &cmd, err, sizeof err) != 0) {
        hs_error("%s", err);
        return JNI_ERR;
    }
    pthread_mutex_lock(&agent->lifecycle_lock);
    jint rc;
    int phase = atomic_load(&agent->phase);
    if (phase == HS_PHASE_RUNNING || phase == HS_PHASE_PAUSED) {
        rc = run_command(agent, jni, &cmd);
    } else {
        hs_error("command '%.64s' ignored: the agent is %s", text, hs_sampling_state_name(agent));
        rc = JNI_ERR;
    }
    pthread_mutex_unlock(&agent->lifecycle_lock);
    return rc;
}
