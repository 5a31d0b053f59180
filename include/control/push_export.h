/* push_export.h: pushing a profile of every window to Grafana Pyroscope (push=URL).
 *
 * Owns the agent thread "heapsampler push", which every push_period= builds the window's
 * profile (allocation values of that window only, in use as of the last GC) through
 * dumps.c, shapes it for the ingester (ingest_shape.h), encodes it as gzipped pprof, queues
 * it (push_sink.h, bounded by count and by a share of memory=) and sends what is due with
 * the wire format (pyroscope_ingest.h) over the transport (push_transport.h, libcurl). No
 * application thread ever sends or waits.
 *
 * Lifecycle (agent.c): hs_push_export_open at load, after the options (reads the
 * credentials file and loads libcurl: either failing fails the load); hs_push_export_start
 * once sampling runs; hs_push_export_stop at VMDeath, before the exit profile: the
 * last window is built and pushed with what is still queued, within HS_PUSH_EXIT_MS, and
 * the exit summary is logged. */
#ifndef HS_PUSH_EXPORT_H
#define HS_PUSH_EXPORT_H

#include <jvmti.h>
#include <stddef.h>
#include <stdint.h>

#include "control/agent.h"

#define HS_PUSH_EXIT_MS 5000

/* The queue's share of memory=: the tables are planned with the rest (budget.h). */
int64_t hs_push_queue_bytes(int64_t memory);

/* Does nothing unless push= was given. 0, or -1 with one line naming the option. */
int hs_push_export_open(hs_agent *agent);

/* Starts the push thread (a no-op without push= or when it runs). Failures are logged. */
void hs_push_export_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni);

/* Pushes the last window and stops (bounded by HS_PUSH_EXIT_MS); logs the summary. */
void hs_push_export_stop(hs_agent *agent);

/* Status line: "push: to URL as SERVICE every P ms, W windows; S sent, R retried, Q queued
 * (B bytes; at most Q2, B2 bytes); dropped: F queue full, X refused, E expired, Z at exit; N
 * windows failed to build[; last error: ...]" or "push: off". Returns the length needed (like snprintf). */
size_t hs_push_export_status(char *buf, size_t len);

#endif
