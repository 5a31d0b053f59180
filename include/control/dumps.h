/* dumps.h: when profiles are written, and under which names.
 *
 * Owns every profile file of a run: the exit profile, the OutOfMemoryError profile
 * (-oom), the peak live-heap profile (-peak), periodic profiles (dump_period=, written by
 * this module's own agent thread, "heapsampler dumper"), and on-demand dumps. Names come
 * from dump_files.c (file= with %p, %t = time written, %n = sequence number); all writes
 * are serialized by one raw monitor and go through profile_output.c (atomic, no symlink
 * followed, a failed write keeps the previous file and logs one line).
 *
 * What each file covers:
 *  - exit, on demand, OutOfMemoryError, peak: allocation values of the whole run so far;
 *  - periodic: allocation values of that period only (time_nanos/duration_nanos are the
 *    period), so consecutive files work with `go tool pprof -diff_base` and a continuous
 *    profiling backend ingests each as its own point in time. What was allocated after
 *    the last periodic dump is only in the exit profile;
 *  - in-use: as of the last GC; the peak file as of the GC after which the heap was
 *    highest; the OutOfMemoryError file with the heap figure the sweeper recorded after
 *    the last GC (nothing on that path allocates Java objects).
 *
 * Lifecycle (agent.c): hs_dumps_add_capabilities and hs_dumps_init at load, hs_dumps_start
 * when sampling starts (VMInit or attach), hs_dumps_stop_periodic then hs_dumps_write_exit
 * at VMDeath. */
#ifndef HS_DUMPS_H
#define HS_DUMPS_H

#include <jvmti.h>
#include <stddef.h>

#include "control/agent.h"
#include "output/profile_output.h"
#include "output/snapshot.h"

/* Agent_OnLoad/OnAttach: adds can_generate_resource_exhaustion_heap_events to wanted when
 * the JVM offers it and oom=true. */
void hs_dumps_add_capabilities(const hs_options *opts, const jvmtiCapabilities *potential,
                               jvmtiCapabilities *wanted);

/* Agent_OnLoad/OnAttach, after the options are parsed: the dump lock and the naming and
 * retention state. 0, or -1 (logged). */
int hs_dumps_init(hs_agent *agent, jvmtiEnv *jvmti);

/* After sampling has started (VMInit, attach; does nothing unless the phase is RUNNING):
 * enables ResourceExhausted (oom=true) and starts the periodic thread (dump_period=). Failures are logged; the agent runs on. Calling it
 * again after hs_dumps_stop_periodic restarts the periodic thread. */
void hs_dumps_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni);

/* Stops the periodic thread (bounded wait, ~5 s). Safe when it never started. */
void hs_dumps_stop_periodic(hs_agent *agent);

/* At VMDeath, after sampling stopped: writes the exit profile and, with peak on, the
 * -peak profile beside it. Returns 0 when the exit profile was written. */
int hs_dumps_write_exit(hs_agent *agent, JNIEnv *jni);

/* On demand (the attach "dump" command): writes a profile now, with the whole run's
 * allocation values (like the exit profile) and in-use as of the last GC, to path (a
 * pattern like file=: %p, %t = now, %n = the next sequence number, %%), or, when path is
 * NULL or empty, to the next sequence name of file= (as a periodic dump would be named;
 * never deleted by keep=). The directory is not created. The path written goes to written (may be
 * NULL). Any Java thread with a JNIEnv, while the tables exist. 0, or -1 (logged). */
int hs_dumps_write_now(hs_agent *agent, JNIEnv *jni, const char *path, char *written,
                       size_t written_len);

/* For a profile that is served rather than written (the HTTP endpoint): builds the
 * request's profile (snapshot.h) and encodes it with encode(p, ctx, ...) into *out
 * (malloc'd), under the dump lock, so it never races a dump or the exit profile. Only
 * while sampling runs or is paused (never once VMDeath has begun). 0, or -1 (out of memory
 * is logged). */
int hs_dumps_encode(hs_agent *agent, JNIEnv *jni, const hs_snapshot_request *req,
                    hs_profile_encoder encode, void *ctx, uint8_t **out, size_t *len);

/* An on-demand dump with its own encoding or destination (the attach `dump` with format=
 * or out=). */
typedef struct {
    const char *path;          /* as hs_dumps_write_now's; unused when fd >= 0 */
    int fd;                    /* >= 0: out= (reply.h), closed after; -1: a path */
    const char *out_name;      /* the fd's path, for messages and status */
    hs_profile_encoder encode; /* NULL: format= and collapsed= of the startup options */
    void *ctx;                 /* the encoder's */
    hs_snapshot_live *live_out; /* filled by the snapshot (NULL: not wanted); an encoder
                                 * may read it through ctx */
} hs_dump_request;

/* hs_dumps_write_now for a request. 0, or -1 (logged). The fd is closed either way. */
int hs_dumps_write_request(hs_agent *agent, JNIEnv *jni, const hs_dump_request *req,
                           char *written, size_t written_len);

/* The on-demand profile in memory, built under the dumps lock (the `top` report): NULL on
 * failure (logged). Not counted as a dump. */
hs_profile *hs_dumps_build_now(hs_agent *agent, JNIEnv *jni, hs_snapshot_live *live_out);

/* Status lines for the attach "status" command, one fact per line ending in '\n':
 *   dumps: <n> written, <m> failed
 *   last dump: <path> at <YYYY-mm-dd HH:MM:SS> | last dump: none
 *   periodic: every <ms> ms, <k> written, keep=<keep>[ (all)] | periodic: off
 *   oom: on, <e> of at most 5 episodes dumped | oom: off
 *   peak: <bytes> bytes used after the GC at <time> | peak: none yet | peak: off
 * Returns the length needed (like snprintf); the text is always NUL-terminated. */
size_t hs_dumps_status(hs_agent *agent, char *buf, size_t len);

/* The ResourceExhausted callback: on Java-heap exhaustion writes the -oom profile (and
 * its -peak) on this thread, at once, once per episode (oom_episode.h); other threads
 * that run out meanwhile wait for it, so a JVM that exits on the error still has it. */
void JNICALL hs_dumps_on_resource_exhausted(jvmtiEnv *jvmti, JNIEnv *jni, jint flags,
                                            const void *reserved, const char *description);

#endif
