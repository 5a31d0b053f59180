/* http_export.h: the agent's HTTP endpoint (http=[HOST:]PORT, http_token=@FILE).
 *
 * Owns the server (export/http_server.h), its routes (export/pprof_routes.h) and the agent
 * thread "heapsampler http" that runs them, and is the routes' profile source: profiles
 * are built on that thread through dumps.c (under the dump lock, never racing a dump or
 * the exit profile), with the thread's own JNIEnv; the thread never touches the Java heap.
 *
 * Lifecycle (agent.c): hs_http_export_open at load, after the options (binds the port, so
 * a port in use or a refused address fails the load: the JVM does not start, or the attach
 * command fails); hs_http_export_start once sampling runs (VMInit, attach);
 * hs_http_export_stop first thing at VMDeath (bounded: the server answers no more, a
 * profile being built is finished, at most ~5 s).
 *
 * On a running agent (control.c): `start,http=[HOST:]PORT[,http_token=@FILE]` opens it
 * through hs_http_export_open_running (the same refusals as at startup fail the command,
 * the application runs on); `stop` closes it with hs_http_export_stop, and a later `start`
 * opens it again on the address of the options. */
#ifndef HS_HTTP_EXPORT_H
#define HS_HTTP_EXPORT_H

#include <jvmti.h>
#include <stddef.h>

#include "control/agent.h"

/* Does nothing unless http= was given. Reads the token file, binds and listens; logs the
 * address ("http: serving ... on 127.0.0.1:PORT"). 0, or -1 with one line naming the
 * option. */
int hs_http_export_open(hs_agent *agent);

/* Starts serving (a no-op without http=, or when it already serves). Failures are logged;
 * the agent runs on without the endpoint. */
void hs_http_export_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni);

/* start,http=: opens and starts serving o's endpoint (o: the agent's options with the
 * command's items) on the command's thread. 0 when it serves (now, or already on that
 * address: same host, same port or port 0), or -1 logged: bind refused (port in use,
 * non-loopback without a token), token unreadable, already serving on another address. */
int hs_http_export_open_running(hs_agent *agent, const hs_options *o, JNIEnv *jni);

/* The address served ("127.0.0.1:34567"), or NULL when closed. */
const char *hs_http_export_address(void);

/* Stops serving and closes the socket (bounded wait). Safe when never opened. */
void hs_http_export_stop(hs_agent *agent);

/* One status line: "http: serving on ADDRESS[ (token required)], A answered, R refused,
 * T timed out" or "http: off". Returns the length needed (like snprintf). */
size_t hs_http_export_status(char *buf, size_t len);

#endif
