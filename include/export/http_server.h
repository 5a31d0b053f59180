/* http_server.h: a small HTTP/1.1 server for the agent's endpoint: one listening socket,
 * a few connections at once, all non-blocking under one poll() loop run by the caller's
 * thread.
 *
 * Bounded everywhere, and fair to a scraper while greedy or hostile peers do their worst:
 *  - A request that arrives whole is served at once: the listening socket accepts only
 *    when the first bytes have arrived (TCP_DEFER_ACCEPT), and a head read whole at accept
 *    never waits for a reading slot.
 *  - Heads still arriving ("reading") hold at most HS_HTTP_MAX_READING slots,
 *    HS_HTTP_PEER_READING of them per peer (IP address); a newcomer evicts the oldest
 *    reading connection of its own peer, or of the peer holding the most.
 *  - A head (and its body) must arrive within the read timeout counted from accept: bytes
 *    trickling in never extend it. A peer whose heads keep timing out or being evicted
 *    (strikes) gets a shorter deadline (halved per strike, at least HS_HTTP_READ_MIN_MS);
 *    strikes fade after HS_HTTP_STRIKE_FADE_MS each.
 *  - Answers that wait (?seconds=) are at most HS_HTTP_MAX_WAITING, of which at most
 *    HS_HTTP_MAX_LONG_WAITS wait longer than HS_HTTP_LONG_WAIT_MS; the handler is told the
 *    longest wait it may take (0: none) and refuses the others itself.
 *  - At most HS_HTTP_MAX_CONNECTIONS connections; when full, the oldest reading one is
 *    evicted for a newcomer, or the newcomer is answered 503 and closed.
 *  - At most HS_HTTP_ACCEPTS_PER_ROUND connections are accepted per poll round, after the
 *    connections already held had their turn: a connect flood waits in the backlog and
 *    cannot starve the slots being served.
 *  - Loopback: every local client is one peer (127.0.0.1 or ::1), so one misbehaving local
 *    client's strikes shorten every local client's head deadline. Deliberately kept: a
 *    client that sends its request whole (any scraper) is served at accept and never meets
 *    that deadline, nor is it ever the oldest reading connection evicted (the hostile
 *    scrape test and bench/hostile_scrape.sh run exactly this on 127.0.0.1); telling local
 *    clients apart would need their port, which each connection picks anew.
 *  - A response must be taken within the write timeout; one response per connection.
 * The loop never blocks on a peer: hs_http_server_stop, from any thread, makes
 * hs_http_server_run return within one handler call.
 *
 * Without a token, the Host header must name this machine's loopback
 * (hs_http_host_is_local): anything else is refused 403 with X-Heapsampler-Refused (a web
 * page using DNS rebinding sends its own name). With a token, every request must carry it
 * (401 otherwise).
 *
 * The server knows nothing of profiles: it parses the request (http_message.h), reads a
 * body of at most HS_HTTP_BODY_MAX announced by Content-Length, checks Host and token, and
 * asks the handler for the response. A handler may also answer later (a delta profile of
 * the next N seconds): the server keeps the connection and calls it back when the time has
 * come, or tells it the client went away. */
#ifndef HS_HTTP_SERVER_H
#define HS_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/http_message.h"

#define HS_HTTP_MAX_CONNECTIONS 32     /* every connection, whatever it is doing */
#define HS_HTTP_ACCEPTS_PER_ROUND 8    /* connections accepted per poll round, at most */
#define HS_HTTP_MAX_READING 8          /* heads (and bodies) still arriving, all peers */
#define HS_HTTP_PEER_READING 4         /* ... of one peer */
#define HS_HTTP_MAX_WAITING 8          /* answers waiting for their time (?seconds=) */
#define HS_HTTP_MAX_LONG_WAITS 2       /* ... of them waiting longer than: */
#define HS_HTTP_LONG_WAIT_MS 60000
#define HS_HTTP_READ_TIMEOUT_MS 5000   /* the whole request head, from accept */
#define HS_HTTP_READ_MIN_MS 300        /* the shortest, for a peer with many strikes */
#define HS_HTTP_STRIKE_FADE_MS 10000   /* one strike is forgotten after this */
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
    /* Answers req into resp and returns 0, or returns the milliseconds (> 0, at most
     * max_wait_ms: the server's room for waiting answers, 0 when it has none) after which it
     * will answer, with *pending set: the server then calls resume(ctx, pending, resp), or
     * drop(ctx, pending) if the connection ends first or the server stops. */
    long (*handle)(void *ctx, const hs_http_request *req, long max_wait_ms,
                   hs_http_response *resp, void **pending);
    void (*resume)(void *ctx, void *pending, hs_http_response *resp);
    void (*drop)(void *ctx, void *pending);
} hs_http_handler;

/* What the server did, for status. */
typedef struct {
    unsigned long answered;  /* responses sent in full, whatever their status */
    unsigned long refused;   /* among them or not: 503 (too many connections), 401, 403
                              * (Host), the parser's 4xx */
    unsigned long timed_out; /* connections cut at the read or write timeout */
    unsigned long evicted;   /* heads still arriving, closed to make room for newcomers */
} hs_http_counters;

/* Binds host:port (host numeric or a name; port 0: any free port) and listens. A host that
 * is not a loopback address is refused unless remote_allowed (a token is set). 0, or -1
 * with one sentence in err (the address, and why); errno is kept (EADDRINUSE). */
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

/* One round of run's loop: waits in poll (at most until the nearest deadline, or a second)
 * for what is ready, serves the connections held, ends those past their deadline, then
 * accepts newcomers (HS_HTTP_ACCEPTS_PER_ROUND at most). false once stopped, or when poll
 * fails. run is this in a loop (then closes every connection); tests drive it round by
 * round from one thread. */
bool hs_http_server_round(hs_http_server *s, const hs_http_handler *handler);

/* From any thread: run returns after the handler call in progress, if any. */
void hs_http_server_stop(hs_http_server *s);

/* A copy of the counters (any thread; approximate while serving). */
hs_http_counters hs_http_server_counters(const hs_http_server *s);

/* Closes every socket and frees s (after run has returned, or when it never ran). */
void hs_http_server_close(hs_http_server *s);

#endif
