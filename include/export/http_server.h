/* http_server.h: a small HTTP/1.1 server for the agent's endpoint: one listening socket,
 * a few connections at once, all non-blocking under one poll() loop run by the caller's
 * thread.
 *
 * Bounded everywhere: at most HS_HTTP_MAX_CONNECTIONS connections (one more is answered
 * 503 and closed), a request head of at most HS_HTTP_HEAD_MAX bytes that must arrive whole
 * within the read timeout (a client sending one byte a second is cut off), a response that
 * must be taken within the write timeout, one response per connection. The loop never
 * blocks on a peer: hs_http_server_stop, from any thread, makes hs_http_server_run return
 * within one handler call.
 *
 * The server knows nothing of profiles: it parses the request (http_message.h), checks the
 * bearer token when one is set, and asks the handler for the response. A handler may also
 * answer later (a delta profile of the next N seconds): the server keeps the connection
 * and calls it back when the time has come, or tells it the client went away. */
#ifndef HS_HTTP_SERVER_H
#define HS_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/http_message.h"

#define HS_HTTP_MAX_CONNECTIONS 8
#define HS_HTTP_READ_TIMEOUT_MS 5000   /* the whole request head */
#define HS_HTTP_WRITE_TIMEOUT_MS 30000 /* the whole response */

typedef struct hs_http_server hs_http_server;

/* A response: the handler fills it; the server sends it and frees body unless body_static. */
typedef struct {
    int status;
    const char *content_type;  /* static text */
    char extra_headers[256];   /* "Name: value\r\n" lines, or "" */
    uint8_t *body;
    size_t body_len;
    bool body_static;
} hs_http_response;

/* The handler's answer to one request. */
typedef struct {
    void *ctx;
    /* Answers req into resp and returns 0, or returns the milliseconds (> 0) after which it
     * will answer, with *pending set: the server then calls resume(ctx, pending, resp), or
     * drop(ctx, pending) if the connection ends first or the server stops. */
    long (*handle)(void *ctx, const hs_http_request *req, hs_http_response *resp, void **pending);
    void (*resume)(void *ctx, void *pending, hs_http_response *resp);
    void (*drop)(void *ctx, void *pending);
} hs_http_handler;

/* What the server did, for status. */
typedef struct {
    unsigned long answered;  /* responses sent in full, whatever their status */
    unsigned long refused;   /* among them or not: 503 (too many connections), 401, the
                              * parser's 4xx */
    unsigned long timed_out; /* connections cut at the read or write timeout */
} hs_http_counters;

/* Binds host:port (host numeric or a name; port 0: any free port) and listens. A host that
 * is not a loopback address is refused unless remote_allowed (a token is set). 0, or -1
 * with one sentence in err (the address, and why). */
int hs_http_server_open(const char *host, int port, bool remote_allowed, hs_http_server **out,
                        char *err, size_t errlen);

/* The address actually bound, "127.0.0.1:34567" ("[::1]:8080" for IPv6). */
const char *hs_http_server_address(const hs_http_server *s);
int hs_http_server_port(const hs_http_server *s);

/* Requires "Authorization: Bearer <token>" on every request (401 otherwise). The server
 * keeps its own copy, wiped on close. 0, or -1 (ENOMEM). */
int hs_http_server_set_token(hs_http_server *s, const char *token, size_t len);

/* Other read and write timeouts than the defaults above (tests), before run. */
void hs_http_server_set_timeouts(hs_http_server *s, int read_ms, int write_ms);

/* Serves until hs_http_server_stop. Call from one thread. */
void hs_http_server_run(hs_http_server *s, const hs_http_handler *handler);

/* From any thread: run returns after the handler call in progress, if any. */
void hs_http_server_stop(hs_http_server *s);

/* A copy of the counters (any thread; approximate while serving). */
hs_http_counters hs_http_server_counters(const hs_http_server *s);

/* Closes every socket and frees s (after run has returned, or when it never ran). */
void hs_http_server_close(hs_http_server *s);

#endif
