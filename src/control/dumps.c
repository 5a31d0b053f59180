/* dumps.c: when profiles are written, and under which names (see dumps.h).
 *
 * One state per process (like the agent itself). `lock` serializes every write, the
 * file naming and retention state, the periodic baseline and the status fields: two
 * dumps never build snapshots at once, and a dump never races the exit profile. Lock
 * order: dumps lock, then the live tracker's sweep lock (inside the snapshot). */
#include "control/dumps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control/agent_thread.h"
#include "control/dump_files.h"
#include "output/file_output.h"
#include "live/live_tracker.h"
#include "base/log.h"
#include "control/oom_episode.h"
#include "live/retention.h"
#include "output/profile_output.h"
#include "sampling/sample_table.h"
#include "base/wall_clock.h"

#define STOP_WAIT_MS 5000

typedef struct {
    jvmtiEnv *jvmti;
    jrawMonitorID lock;
    hs_dump_files files;
    hs_agent_thread periodic;
    hs_oom_episode episode;
    /* The previous periodic dump: its weights per bucket (1..nbase) and its time. */
    uint64_t *base_fp;
    uint32_t nbase;
    int64_t period_start;
    unsigned long periodic_count;
    /* The last `mark` (a window's start for `dump,since=`): its weights and time. */
    uint64_t *mark_fp;
    uint32_t nmark;
    int64_t mark_nanos;
    unsigned mark_id;
    /* For status. */
    unsigned long written, failed;
    char last_path[HS_PATH_MAX];
    int64_t last_nanos;
} dumps_state;

static dumps_state D;

/* Set while this thread writes a dump: an OutOfMemoryError it meets inside (the heap
 * figure's MXBean call) must not start another dump. */
static _Thread_local bool in_dump;

static bool lock_dumps(void) {
    if (!D.lock) return false;
    jvmtiError err = (*D.jvmti)->RawMonitorEnter(D.jvmti, D.lock);
    if (err == JVMTI_ERROR_NONE) return true;
    hs_warn("dump lock failed (JVMTI error %d): no profile written", err);
    return false;
}

static void unlock_dumps(void) { (*D.jvmti)->RawMonitorExit(D.jvmti, D.lock); }

/* --- setup ----------------------------------------------------------------------------------- */

void hs_dumps_add_capabilities(const hs_options *opts, const jvmtiCapabilities *potential,
                               jvmtiCapabilities *wanted) {
    if (opts->oom && potential->can_generate_resource_exhaustion_heap_events)
        wanted->can_generate_resource_exhaustion_heap_events = 1;
}

int hs_dumps_init(hs_agent *agent, jvmtiEnv *jvmti) {
    if (D.lock) return 0; /* already set up (a restart) */
    D.jvmti = jvmti;
    if (hs_dump_files_init(&D.files, agent->opts.file, (long)getpid(),
                           (uint32_t)agent->opts.keep) != 0) {
        hs_error("out of memory setting up the dump file names");
        return -1;
    }
    if (hs_agent_thread_init(&D.periodic, jvmti, "heapsampler dumper") != 0 ||
        (*jvmti)->CreateRawMonitor(jvmti, "heapsampler dumps", &D.lock) != JVMTI_ERROR_NONE) {
        hs_error("cannot create the dump monitors");
        D.lock = NULL;
        hs_dump_files_free(&D.files);
        return -1;
    }
    return 0;
}

static void enable_oom_event(jvmtiEnv *jvmti) {
    jvmtiCapabilities caps;
    if ((*jvmti)->GetCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE ||
        !caps.can_generate_resource_exhaustion_heap_events) {
        hs_warn("this JVM offers no heap-exhaustion events: no profile on OutOfMemoryError");
        return;
    }
    jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                                        JVMTI_EVENT_RESOURCE_EXHAUSTED, NULL);
    if (err != JVMTI_ERROR_NONE)
        hs_warn("enabling ResourceExhausted failed (JVMTI error %d): no profile on "
                "OutOfMemoryError", err);
}

static void JNICALL periodic_main(jvmtiEnv *jvmti, JNIEnv *jni, void *arg);

void hs_dumps_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    if (!D.lock || atomic_load(&agent->phase) != HS_PHASE_RUNNING) return; /* sampling is off */
    if (agent->opts.oom) enable_oom_event(jvmti);
    if (agent->opts.dump_period_ms == 0 || D.periodic.running) return;
    if (lock_dumps()) {
        if (D.periodic_count == 0) D.period_start = agent->start_nanos; /* first period */
        unlock_dumps();
    }
    if (hs_agent_thread_start(&D.periodic, jvmti, jni, "heapsampler dumper", periodic_main,
                              agent) != 0)
        hs_warn("no periodic profiles in this run");
}

void hs_dumps_stop_periodic(hs_agent *agent) {
    if (!D.lock || !D.periodic.running) return;
    if (!hs_agent_thread_stop(&D.periodic, agent->jvmti, STOP_WAIT_MS))
        hs_warn("the periodic dump thread did not stop in time");
}

/* --- writing --------------------------------------------------------------------------------- */

static void note_result(int rc, const char *path) {
    if (rc != 0) {
        D.failed++;
        return;
    }
    D.written++;
    snprintf(D.last_path, sizeof D.last_path, "%s", path);
    D.last_nanos = hs_wall_nanos();
}

/* Names the next file (under the lock). 0, or -1 (logged). */
static int next_name(const char *suffix, bool numbered, char *path, size_t len) {
    char err[256];
    if (hs_dump_files_name(&D.files, suffix, numbered, time(NULL), path, len, err, sizeof err) == 0)
        return 0;
    hs_error("cannot name the profile (file=%s): %s", D.files.pattern, err);
    D.failed++;
    return -1;
}

/* Writes the peak profile next to a profile named with `suffix` ("peak", "oom-peak"). */
static void write_peak(hs_agent *agent, JNIEnv *jni, const char *suffix) {
    uint64_t used;
    int64_t nanos;
    if (!hs_options_peak_enabled(&agent->opts) || !agent->live) return;
    if (!hs_live_peak(&agent->live, &used, &nanos)) {
        hs_info("no peak profile: no GC was seen");
        return;
    }
    char path[HS_PATH_MAX];
    hs_snapshot_request req = {.live = HS_LIVE_PEAK,
                               .what = "peak profile: inuse as of the GC with the most heap used "
                                       "after it; alloc values cover the whole run"};
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    if (next_name(suffix, false, path, sizeof path) == 0)
        note_result(hs_write_profile_request(&src, jni, path, &req), path);
}

int hs_dumps_write_exit(hs_agent *agent, JNIEnv *jni) {
    if (!lock_dumps()) return -1;
    in_dump = true;
    char path[HS_PATH_MAX];
    int rc = next_name(NULL, false, path, sizeof path);
    if (rc == 0) {
        hs_snapshot_source src = hs_agent_snapshot_source(agent);
        rc = hs_write_profile(&src, jni, path);
        note_result(rc, path);
    }
    write_peak(agent, jni, "peak");
    in_dump = false;
    unlock_dumps();
    return rc;
}

int hs_dumps_write_now(hs_agent *agent, JNIEnv *jni, const char *path, char *written,
                       size_t written_len) {
    hs_dump_request req = {.path = path, .fd = -1};
    return hs_dumps_write_request(agent, jni, &req, written, written_len);
}

static const char ON_DEMAND[] = "on-demand profile: alloc values cover the whole run";

/* The file an on-demand dump goes to (under the lock). 0, or -1 (logged, counted). */
static int on_demand_name(const hs_dump_request *r, char *named, size_t len) {
    char err[256];
    if (r->fd >= 0) {
        snprintf(named, len, "%s", r->out_name ? r->out_name : "out=");
        return 0;
    }
    if (!r->path || !r->path[0]) return next_name(NULL, true, named, len);
    if (hs_dump_files_name_pattern(&D.files, r->path, time(NULL), named, len, err, sizeof err) == 0)
        return 0;
    hs_error("bad option 'file=%s': %s", r->path, err);
    D.failed++;
    return -1;
}

static const char WINDOW[] = "a window: alloc values cover the time since the mark only "
                            "(time_nanos, duration_nanos); inuse as of the last GC";

/* Under the dumps lock: the request of a window since mark `id` (allocations since then),
 * with the weights read now into *now_fp (the caller frees). 0, or -1 (logged). */
static int window_since_mark(const hs_snapshot_source *src, unsigned id, uint64_t **now_fp,
                             hs_snapshot_request *req) {
    if (id != D.mark_id || !D.mark_fp) {
        hs_error("dump: since=%u: no such mark (the last is %u: a later mark replaces it)", id,
                 D.mark_id);
        D.failed++;
        return -1;
    }
    uint32_t n = 0;
    *now_fp = hs_snapshot_read_weights(src, &n);
    if (!*now_fp || !hs_snapshot_extend_weights(&D.mark_fp, &D.nmark, n)) {
        hs_error("dump: out of memory");
        D.failed++;
        return -1;
    }
    int64_t now = hs_wall_nanos();
    req->alloc_fp = *now_fp;
    req->base_fp = D.mark_fp;
    req->nbuckets = n;
    req->time_nanos = D.mark_nanos;
    req->duration_nanos = now - D.mark_nanos;
    req->what = WINDOW;
    return 0;
}

int hs_dumps_write_request(hs_agent *agent, JNIEnv *jni, const hs_dump_request *r,
                           char *written, size_t written_len) {
    if (written && written_len) written[0] = '\0';
    if (!agent->samples || !lock_dumps()) {
        if (r->fd >= 0) close(r->fd);
        return -1;
    }
    in_dump = true;
    char named[HS_PATH_MAX];
    int rc = on_demand_name(r, named, sizeof named);
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    hs_snapshot_request req = {.live = HS_LIVE_NOW, .what = ON_DEMAND, .live_out = r->live_out};
    uint64_t *now_fp = NULL;
    if (rc == 0 && r->since_mark) rc = window_since_mark(&src, r->since_mark, &now_fp, &req);
    if (rc == 0) {
        hs_profile_target target = {.path = named, .fd = r->fd, .encode = r->encode,
                                    .ctx = r->ctx};
        rc = hs_write_profile_to(&src, jni, &target, &req);
        note_result(rc, named);
        if (rc == 0 && written) snprintf(written, written_len, "%s", named);
    } else if (r->fd >= 0) {
        close(r->fd);
    }
    free(now_fp);
    in_dump = false;
    unlock_dumps();
    return rc;
}

int hs_dumps_mark(hs_agent *agent, unsigned *id) {
    if (!agent->samples || !lock_dumps()) return -1;
    uint32_t n = 0;
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    uint64_t *fp = hs_snapshot_read_weights(&src, &n);
    if (fp) { /* one mark at a time: a new one replaces the last */
        free(D.mark_fp);
        D.mark_fp = fp;
        D.nmark = n;
        D.mark_nanos = hs_wall_nanos();
        *id = ++D.mark_id;
    } else {
        hs_error("mark: out of memory");
    }
    unlock_dumps();
    return fp ? 0 : -1;
}

int hs_dumps_encode(hs_agent *agent, JNIEnv *jni, const hs_snapshot_request *req,
                    hs_profile_encoder encode, void *ctx, uint8_t **out, size_t *len) {
    if (!agent->samples || !lock_dumps()) return -1;
    int rc = -1;
    int phase = atomic_load(&agent->phase);
    if (phase == HS_PHASE_RUNNING || phase == HS_PHASE_PAUSED) { /* not after VMDeath */
        in_dump = true;
        hs_snapshot_source src = hs_agent_snapshot_source(agent);
        hs_profile *p = hs_snapshot_build_request(&src, jni, req);
        rc = p ? encode(p, ctx, out, len) : -1;
        hs_profile_free(p);
        if (rc != 0) hs_warn("out of memory while building a profile to serve");
        in_dump = false;
    }
    unlock_dumps();
    return rc;
}

int hs_dumps_check_dir(const char *path, char *err, size_t errlen) {
    if (!lock_dumps()) {
        snprintf(err, errlen, "the dump lock failed");
        return -1;
    }
    int rc = hs_check_output_dir(path, err, errlen);
    unlock_dumps();
    return rc;
}

hs_profile *hs_dumps_build_now(hs_agent *agent, JNIEnv *jni, hs_snapshot_live *live_out) {
    if (!agent->samples || !lock_dumps()) return NULL;
    in_dump = true;
    hs_snapshot_request req = {.live = HS_LIVE_NOW, .what = ON_DEMAND, .live_out = live_out};
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    hs_profile *p = hs_snapshot_build_request(&src, jni, &req);
    if (!p) hs_error("out of memory while building the profile");
    in_dump = false;
    unlock_dumps();
    return p;
}

/* --- periodic profiles ----------------------------------------------------------------------- */

/* Deletes the periodic file keep= no longer keeps (only ever one this run wrote), through
 * the directory pinned at startup, as it was written. */
static void retain(const char *path) {
    char evicted[HS_PATH_MAX], err[HS_PATH_MAX + 64];
    int rc = hs_dump_files_retain(&D.files, path, evicted, sizeof evicted);
    if (rc == 1 && hs_remove_file(evicted, err, sizeof err) != 0)
        hs_warn("keep=%u: cannot delete the old profile '%s'", D.files.keep, evicted);
}

/* One periodic profile: allocations since the previous one, in-use as of the last GC. */
static void periodic_dump(hs_agent *agent, JNIEnv *jni) {
    if (atomic_load(&agent->phase) != HS_PHASE_RUNNING) return;
    uint32_t n = 0;
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    uint64_t *now_fp = hs_snapshot_read_weights(&src, &n);
    char path[HS_PATH_MAX];
    if (!now_fp || !hs_snapshot_extend_weights(&D.base_fp, &D.nbase, n) ||
        next_name(NULL, true, path, sizeof path) != 0) {
        if (!now_fp) hs_warn("out of memory: periodic profile skipped");
        free(now_fp);
        return;
    }
    int64_t now = hs_wall_nanos();
    char what[160];
    snprintf(what, sizeof what,
             "periodic profile %lu: alloc values cover this period only (time_nanos, "
             "duration_nanos); inuse as of the last GC", D.periodic_count + 1);
    hs_snapshot_request req = {.alloc_fp = now_fp, .base_fp = D.base_fp, .nbuckets = n,
                               .time_nanos = D.period_start,
                               .duration_nanos = now - D.period_start,
                               .live = HS_LIVE_NOW, .what = what};
    int rc = hs_write_profile_request(&src, jni, path, &req);
    note_result(rc, path);
    if (rc != 0) { /* the next file covers this period too */
        free(now_fp);
        return;
    }
    free(D.base_fp);
    D.base_fp = now_fp;
    D.nbase = n;
    D.period_start = now;
    D.periodic_count++;
    retain(path);
}

static int64_t monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void JNICALL periodic_main(jvmtiEnv *jvmti, JNIEnv *jni, void *arg) {
    hs_agent *agent = arg;
    int64_t period = agent->opts.dump_period_ms;
    int64_t next = monotonic_ms() + period;
    for (;;) {
        int64_t left = next - monotonic_ms();
        if (!hs_agent_thread_sleep(&D.periodic, jvmti, left > 0 ? left : 0)) break;
        if (monotonic_ms() < next) continue; /* woken early (spurious notify) */
        if (lock_dumps()) {
            in_dump = true;
            periodic_dump(agent, jni);
            in_dump = false;
            unlock_dumps();
        }
        next += period;
        if (next <= monotonic_ms()) next = monotonic_ms() + period; /* a slow dump: skip */
    }
    hs_agent_thread_exiting(&D.periodic, jvmti);
}

/* --- OutOfMemoryError ------------------------------------------------------------------------ */

/* Sites whose retention paths the OOM dump seeks (oom_paths=true); each pause of the walk
 * stays within paths_budget= (the JVM is about to throw, possibly to exit). */
#define OOM_PATH_SITES 5

static void write_oom_paths(hs_agent *agent, JNIEnv *jni, const char *profile_path) {
    char path[HS_PATH_MAX];
    if (hs_retention_path(profile_path, path, sizeof path) != 0) {
        hs_error("cannot name the retention paths file beside '%s'", profile_path);
        return;
    }
    hs_retention_source src = hs_agent_retention_source(agent);
    hs_profile *paths = hs_retention_build(&src, jni, OOM_PATH_SITES, agent->opts.paths_budget_ms,
                                           NULL);
    if (!paths) hs_error("cannot write '%s': no retention paths", path);
    else if (hs_write_profile_file(paths, path) == 0) hs_warn("OutOfMemoryError: wrote %s", path);
    hs_profile_free(paths);
}

static void write_oom(hs_agent *agent, JNIEnv *jni, const char *description) {
    char suffix[32], peak_suffix[40], what[256];
    if (D.episode.dumps == 1) snprintf(suffix, sizeof suffix, "oom");
    else snprintf(suffix, sizeof suffix, "oom-%u", D.episode.dumps);
    snprintf(peak_suffix, sizeof peak_suffix, "%s-peak", suffix);
    snprintf(what, sizeof what,
             "OutOfMemoryError (%s), episode %u: inuse as of the last GC, heap figure as the "
             "agent recorded it after that GC; alloc values cover the whole run",
             description ? description : "Java heap", D.episode.dumps);
    char path[HS_PATH_MAX];
    hs_snapshot_request req = {.live = HS_LIVE_NOW_NO_JAVA_ALLOC, .what = what};
    if (next_name(suffix, false, path, sizeof path) != 0) return;
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    int rc = hs_write_profile_request(&src, jni, path, &req);
    note_result(rc, path);
    if (rc == 0)
        hs_warn("OutOfMemoryError: wrote %s", path); /* the one line a user looks for */
    write_peak(agent, jni, peak_suffix);
    if (rc == 0 && agent->opts.oom_paths) write_oom_paths(agent, jni, path);
}

void JNICALL hs_dumps_on_resource_exhausted(jvmtiEnv *jvmti, JNIEnv *jni, jint flags,
                                            const void *reserved, const char *description) {
    (void)reserved;
    hs_agent *agent = hs_agent_get();
    /* Only the Java heap; a thread already inside the agent (a dump, the sweeper) may hold
     * the locks a dump needs: it passes. */
    if (!(flags & JVMTI_RESOURCE_EXHAUSTED_JAVA_HEAP) || in_dump || hs_live_thread_is_busy() ||
        atomic_load(&agent->phase) != HS_PHASE_RUNNING || !lock_dumps())
        return;
    /* Threads that run out while the dump is written wait above, then find the episode
     * open: a JVM that exits on the error leaves the profile complete. */
    if (atomic_load(&agent->phase) == HS_PHASE_RUNNING) { /* again: VMDeath may have come */
        in_dump = true;
        uint64_t low = 0, last = 0;
        bool low_valid = agent->live && hs_live_heap_low_water(&agent->live, &low, &last);
        if (hs_oom_episode_exhausted(&D.episode, low_valid, low, last))
            write_oom(agent, jni, description);
        /* No more profiles this run: stop the event (and the JVM's log line for each one). */
        if (D.episode.dumps >= HS_OOM_MAX_DUMPS)
            (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_RESOURCE_EXHAUSTED,
                                               NULL);
        in_dump = false;
    }
    unlock_dumps();
}

/* --- status ---------------------------------------------------------------------------------- */

static void format_local_time(int64_t nanos, char *buf, size_t len) {
    time_t secs = (time_t)(nanos / 1000000000);
    struct tm tm;
    if (!localtime_r(&secs, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
        snprintf(buf, len, "?");
}

void hs_dumps_counts(hs_agent *agent, unsigned long *written, unsigned long *failed) {
    (void)agent;
    *written = *failed = 0;
    if (!lock_dumps()) return;
    *written = D.written;
    *failed = D.failed;
    unlock_dumps();
}

size_t hs_dumps_status(hs_agent *agent, char *buf, size_t len) {
    char last[HS_PATH_MAX + 64] = "none", when[32], peak[96] = "off";
    unsigned long written = 0, failed = 0, periodic_count = 0, episodes = 0;
    if (lock_dumps()) {
        written = D.written;
        failed = D.failed;
        periodic_count = D.periodic_count;
        episodes = D.episode.dumps;
        format_local_time(D.last_nanos, when, sizeof when);
        if (D.written) snprintf(last, sizeof last, "%s at %s", D.last_path, when);
        unlock_dumps();
    }
    uint64_t used;
    int64_t nanos;
    if (hs_options_peak_enabled(&agent->opts) && hs_live_peak(&agent->live, &used, &nanos)) {
        format_local_time(nanos, when, sizeof when);
        snprintf(peak, sizeof peak, "%llu bytes used after the GC at %s", (unsigned long long)used,
                 when);
    } else if (hs_options_peak_enabled(&agent->opts)) {
        snprintf(peak, sizeof peak, "none yet");
    }
    char periodic[96] = "off";
    if (agent->opts.dump_period_ms)
        snprintf(periodic, sizeof periodic, "every %lld ms, %lu written, keep=%lld%s",
                 (long long)agent->opts.dump_period_ms, periodic_count,
                 (long long)agent->opts.keep, agent->opts.keep ? "" : " (all)");
    char oom[64] = "off";
    if (agent->opts.oom)
        snprintf(oom, sizeof oom, "on, %lu of at most %d episodes dumped", episodes,
                 HS_OOM_MAX_DUMPS);
    int n = snprintf(buf, len,
                     "dumps: %lu written, %lu failed\nlast dump: %s\nperiodic: %s\noom: %s\n"
                     "peak: %s\n",
                     written, failed, last, periodic, oom, peak);
    return n > 0 ? (size_t)n : 0;
}
