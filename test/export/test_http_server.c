/* test_http_server.c: the endpoint's server and routes over real sockets on 127.0.0.1,
 * with a fake profile source: Go's answers (status, headers, bodies), the delta, sharing
 * one build, the token, the connection limit, read timeouts against a slow client, a stop
 * that does not wait for peers, the refusals at opening (non-loopback, port in use), and
 * the accept cap of a poll round, driven round by round. Every wait is bounded (socket
 * timeouts, joins after stop, loops with a limit). */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "export/http_server.h"
#include "export/pprof_routes.h"
#include "unit.h"

/* --- a fake profile source ------------------------------------------------------------------- */

typedef struct {
    atomic_int builds, marks, releases, fail, gcs, build_ms;
    char last_default[32];
    bool last_delta;
    int last_format;
} fake_source;

static int fake_build(void *ctx, const hs_export_profile *what, uint8_t **out, size_t *len) {
    fake_source *f = ctx;
    if (atomic_load(&f->fail)) return -1;
    if (atomic_load(&f->build_ms)) usleep((useconds_t)atomic_load(&f->build_ms) * 1000);
    int n = atomic_fetch_add(&f->builds, 1) + 1;
    snprintf(f->last_default, sizeof f->last_default, "%s", what->default_type);
    f->last_delta = what->baseline != NULL;
    f->last_format = what->format;
    if (what->gc) atomic_fetch_add(&f->gcs, 1);
    char body[128];
    int blen = what->format == HS_EXPORT_LEGACY
                   ? snprintf(body, sizeof body, "heap profile: 1: 2 [3: 4] @ heap/2\n"
                              "1: 2 [3: 4] @ 0x1011\n#\t0x1010\tfake.Site.run+0x0\tx:%d\n", n)
                   : snprintf(body, sizeof body, "profile %d %s%s", n, what->default_type,
                              what->baseline ? " delta" : "");
    *out = malloc((size_t)blen);
    memcpy(*out, body, (size_t)blen);
    *len = (size_t)blen;
    return 0;
}

static void *fake_mark(void *ctx) {
    fake_source *f = ctx;
    atomic_fetch_add(&f->marks, 1);
    return malloc(8);
}

static void fake_release(void *ctx, void *baseline) {
    fake_source *f = ctx;
    atomic_fetch_add(&f->releases, 1);
    free(baseline);
}

/* --- a server on its thread ------------------------------------------------------------------ */

typedef struct {
    hs_http_server *server;
    hs_pprof_routes *routes;
    hs_profile_source source;
    hs_http_handler handler;
    fake_source fake;
    pthread_t thread;
} fixture;

static void *serve(void *arg) {
    fixture *fx = arg;
    hs_http_server_run(fx->server, &fx->handler);
    return NULL;
}

static fixture *start(const char *token, int read_ms) {
    fixture *fx = calloc(1, sizeof *fx);
    char err[256];
    if (hs_http_server_open("127.0.0.1", 0, token != NULL, &fx->server, err, sizeof err) != 0) {
        fprintf(stderr, "open: %s\n", err);
        free(fx);
        return NULL;
    }
    if (token) hs_http_server_set_token(fx->server, token, strlen(token));
    hs_http_server_set_timeouts(fx->server, read_ms, 2000);
    fx->source = (hs_profile_source){&fx->fake, fake_build, fake_mark, fake_release};
    fx->routes = hs_pprof_routes_create(&fx->source);
    fx->handler = hs_pprof_routes_handler(fx->routes);
    pthread_create(&fx->thread, NULL, serve, fx);
    return fx;
}

static void finish(fixture *fx) {
    hs_http_server_stop(fx->server);
    pthread_join(fx->thread, NULL);
    hs_http_server_close(fx->server);
    hs_pprof_routes_destroy(fx->routes);
    free(fx);
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A connected socket with 5 s receive and send timeouts, or -1. */
static int connect_to(fixture *fx) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)hs_http_server_port(fx->server))};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads until the server closes (or 5 s pass) into buf. */
static size_t read_all(int fd, char *buf, size_t len) {
    size_t used = 0;
    for (;;) {
        ssize_t n = recv(fd, buf + used, len - 1 - used, 0);
        if (n <= 0) break;
        used += (size_t)n;
    }
    buf[used] = '\0';
    return used;
}

/* Sends request, returns the whole response (static buffer). */
static const char *exchange(fixture *fx, const char *request) {
    static char response[8192];
    response[0] = '\0';
    int fd = connect_to(fx);
    if (fd < 0) return response;
    (void)!send(fd, request, strlen(request), MSG_NOSIGNAL);
    read_all(fd, response, sizeof response);
    close(fd);
    return response;
}

static const char *body_of(const char *response) {
    const char *b = strstr(response, "\r\n\r\n");
    return b ? b + 4 : "";
}

/* --- tests ----------------------------------------------------------------------------------- */

static void test_profiles(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: application/octet-stream\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Disposition: attachment; filename=\"heap\"\r\n"));
    CU_ASSERT_STRING_EQUAL(body_of(r), "profile 1 inuse_space");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Length: 21\r\n"));
    r = exchange(fx, "GET /debug/pprof/allocs HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "filename=\"allocs\""));
    CU_ASSERT_STRING_EQUAL(body_of(r), "profile 2 alloc_space");
    r = exchange(fx, "GET /flamegraph HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: text/html; charset=utf-8\r\n"));
    CU_ASSERT_PTR_NULL(strstr(r, "Content-Disposition"));
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_HTML);
    r = exchange(fx, "GET /debug/pprof/top HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: text/plain; charset=utf-8\r\n"));
    CU_ASSERT_PTR_NULL(strstr(r, "Content-Disposition"));
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_TEXT);
    r = exchange(fx, "HEAD /debug/pprof/allocs HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_STRING_EQUAL(body_of(r), ""); /* HEAD: the length, no body */
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Length: 21\r\n"));
    r = exchange(fx, "GET /debug/pprof/ HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: text/html; charset=utf-8\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "<a href='heap?debug=1'>heap</a>")); /* as Go links them */
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "<a href='allocs?debug=1'>allocs</a>"));
    CU_ASSERT_PTR_NULL(strstr(r, "X-Go-Pprof"));
    hs_http_counters c = hs_http_server_counters(fx->server);
    CU_ASSERT_EQUAL(c.answered, 6);
    finish(fx);
}

static void test_errors(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    const char *r = exchange(fx, "POST /debug/pprof/heap HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 405 Method Not Allowed\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Allow: GET, HEAD\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Go-Pprof: 1\r\n"));
    r = exchange(fx, "GET /debug/pprof/goroutine HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 404 Not Found\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Go-Pprof: 1\r\n")); /* Go's serveError */
    CU_ASSERT_STRING_EQUAL(body_of(r), "Unknown profile\n");
    /* outside /debug/pprof/: the mux's 404, no X-Go-Pprof (pprof would show it as its own) */
    r = exchange(fx, "GET /metrics HTTP/1.1\r\n\r\n");
    CU_ASSERT_STRING_EQUAL(body_of(r), "404 page not found\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: text/plain; charset=utf-8\r\n"));
    CU_ASSERT_PTR_NULL(strstr(r, "X-Go-Pprof"));
    r = exchange(fx, "GET /flamegraph?seconds=x HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 400 "));
    CU_ASSERT_PTR_NULL(strstr(r, "X-Go-Pprof"));
    r = exchange(fx, "GET /debug/pprof HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 301 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Location: /debug/pprof/\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: text/html; charset=utf-8\r\n"));
    CU_ASSERT_STRING_EQUAL(body_of(r), "<a href=\"/debug/pprof/\">Moved Permanently</a>.\n\n");
    CU_ASSERT_PTR_NULL(strstr(r, "X-Go-Pprof"));
    const char *bad_seconds[] = {"0", "-1", "abc", "1.5", "", "99999999999"};
    for (size_t i = 0; i < sizeof bad_seconds / sizeof *bad_seconds; i++) {
        char req[128];
        snprintf(req, sizeof req, "GET /debug/pprof/heap?seconds=%s HTTP/1.1\r\n\r\n",
                 bad_seconds[i]);
        r = exchange(fx, req);
        CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 400 Bad Request\r\n"));
        CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Go-Pprof: 1\r\n"));
        CU_ASSERT_STRING_EQUAL(body_of(r),
                               "invalid value for \"seconds\" - must be a positive integer\n");
    }
    r = exchange(fx, "GET /debug/pprof/heap?seconds=301 HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 400 "));
    r = exchange(fx, "GET /debug/pprof/heap?seconds=5&debug=1 HTTP/1.1\r\n\r\n");
    CU_ASSERT_STRING_EQUAL(body_of(r), "seconds and debug params are incompatible\n");
    r = exchange(fx, "GET /x HTTP/2.0\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 505 "));
    atomic_store(&fx->fake.fail, 1);
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 500 "));
    CU_ASSERT_STRING_EQUAL(body_of(r), "failed to collect profile\n");
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.marks), 0); /* no delta was started by a bad request */
    finish(fx);
}

/* Requests for the same profile within a second share one build. */
static void test_shared_build(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    for (int i = 0; i < 5; i++) {
        const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n");
        CU_ASSERT_STRING_EQUAL(body_of(r), "profile 1 inuse_space");
    }
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), 1);
    exchange(fx, "GET /debug/pprof/allocs HTTP/1.1\r\n\r\n"); /* another profile: built */
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), 2);
    finish(fx);
}

/* ?debug=1: heap and allocs as text (every site, ranked by their default type); ?gc=1: a
 * forced collection, at most one within HS_ROUTES_GC_SPACING_MS, said in a header. */
static void test_debug_and_gc(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    const char *r = exchange(fx, "GET /debug/pprof/heap?debug=1 HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Content-Type: text/plain; charset=utf-8\r\n"));
    CU_ASSERT_PTR_NULL(strstr(r, "Content-Disposition"));
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_LEGACY);
    CU_ASSERT_STRING_EQUAL(fx->fake.last_default, "inuse_space");
    exchange(fx, "GET /debug/pprof/allocs?debug=1 HTTP/1.1\r\n\r\n");
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_LEGACY);
    CU_ASSERT_STRING_EQUAL(fx->fake.last_default, "alloc_space");
    exchange(fx, "GET /debug/pprof/heap?debug=0 HTTP/1.1\r\n\r\n");
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_PPROF);
    exchange(fx, "GET /flamegraph?debug=1 HTTP/1.1\r\n\r\n"); /* already a page */
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_HTML);
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.gcs), 0);
    r = exchange(fx, "GET /debug/pprof/heap?gc=1 HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Heapsampler-Gc: forced\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "filename=\"heap\""));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.gcs), 1);
    int builds = atomic_load(&fx->fake.builds);
    r = exchange(fx, "GET /debug/pprof/heap?gc=1 HTTP/1.1\r\n\r\n"); /* the same: shared */
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Heapsampler-Gc: shared: forced "));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), builds);
    r = exchange(fx, "GET /debug/pprof/allocs?gc=1 HTTP/1.1\r\n\r\n"); /* built, no GC */
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Heapsampler-Gc: shared: forced "));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), builds + 1);
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.gcs), 1);
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NULL(strstr(r, "X-Heapsampler-Gc"));
    r = exchange(fx, "GET /debug/pprof/heap?gc=yes HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 400 "));
    r = exchange(fx, "GET /debug/pprof/ HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href='heap?gc=1'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href='heap?debug=1'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href='heap?seconds=30'"));
    finish(fx);
}

/* ?seconds=1: answered after a second with a delta; a second one while it waits is
 * answered too; a client that leaves early has its baseline released. */
static void test_delta(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    int waiting = connect_to(fx), leaving = connect_to(fx);
    const char *req = "GET /debug/pprof/allocs?seconds=1 HTTP/1.1\r\n\r\n";
    int64_t t0 = now_ms();
    (void)!send(waiting, req, strlen(req), MSG_NOSIGNAL);
    (void)!send(leaving, req, strlen(req), MSG_NOSIGNAL);
    usleep(200 * 1000);
    close(leaving);
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n"); /* while one waits */
    CU_ASSERT_STRING_EQUAL(body_of(r), "profile 1 inuse_space");
    CU_ASSERT_TRUE(now_ms() - t0 < 900);
    char buf[2048];
    read_all(waiting, buf, sizeof buf);
    close(waiting);
    int64_t took = now_ms() - t0;
    CU_ASSERT_TRUE(took >= 1000 && took < 4000);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "filename=\"allocs-delta\""));
    CU_ASSERT_STRING_EQUAL(body_of(buf), "profile 2 alloc_space delta");
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.marks), 2);
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.releases), 2);
    finish(fx);
}

static void test_token(void) {
    fixture *fx = start("tok-123", 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 401 Unauthorized\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "WWW-Authenticate: Bearer"));
    CU_ASSERT_PTR_NULL(strstr(r, "tok-123"));
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nAuthorization: Bearer tok-12\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 401 "));
    /* the right token, then a NUL and more: not the token */
    static const char nul[] = "GET /debug/pprof/heap HTTP/1.1\r\nAuthorization: Bearer tok-123\0x\r\n\r\n";
    int fd = connect_to(fx);
    (void)!send(fd, nul, sizeof nul - 1, MSG_NOSIGNAL);
    char buf[1024];
    read_all(fd, buf, sizeof buf);
    close(fd);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 400 "));
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nAuthorization: Bearer tok-123\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), 1); /* only the authorized one built */
    CU_ASSERT_EQUAL(hs_http_server_counters(fx->server).refused, 3);
    finish(fx);
}

/* Oversized heads are refused (431) without waiting for more. */
static void test_oversized(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    int fd = connect_to(fx);
    char chunk[1024];
    memset(chunk, 'a', sizeof chunk);
    (void)!send(fd, "GET / HTTP/1.1\r\nX: ", 19, MSG_NOSIGNAL);
    for (int i = 0; i < 9; i++) (void)!send(fd, chunk, sizeof chunk, MSG_NOSIGNAL);
    char buf[1024];
    read_all(fd, buf, sizeof buf);
    close(fd);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 431 "));
    finish(fx);
}

/* A client that opens a connection and sends part of a head, n of them: each sends "G". */
static void open_slow(fixture *fx, int *fds, int n) {
    for (int i = 0; i < n; i++) {
        fds[i] = connect_to(fx);
        (void)!send(fds[i], "G", 1, MSG_NOSIGNAL);
    }
}

static void close_all(int *fds, int n) {
    for (int i = 0; i < n; i++) close(fds[i]);
}

/* A head trickling in is cut at the read timeout counted from accept, however the trickle
 * goes on: the bytes never extend the deadline. */
static void test_trickle_cut_at_deadline(void) {
    fixture *fx = start(NULL, 600);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    int fd;
    open_slow(fx, &fd, 1);
    int64_t t0 = now_ms();
    for (int i = 0; i < 15; i++) { /* a byte every 100 ms, past the 600 ms timeout */
        (void)!send(fd, "E", 1, MSG_NOSIGNAL);
        usleep(100 * 1000);
    }
    char buf[64];
    CU_ASSERT_EQUAL(read_all(fd, buf, sizeof buf), 0);
    close(fd);
    CU_ASSERT_TRUE(now_ms() - t0 < 2500);
    CU_ASSERT_EQUAL(hs_http_server_counters(fx->server).timed_out, 1);
    finish(fx);
}

/* Slowloris: three times as many slow heads as one peer may hold reading, reconnecting as
 * they are cut; a request sent whole is answered at once every time, and the slow ones
 * only ever pushed out each other. */
static void test_slowloris_cannot_starve(void) {
    fixture *fx = start(NULL, 5000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    enum { SLOW = HS_HTTP_PEER_READING * 3 };
    int slow[SLOW];
    open_slow(fx, slow, SLOW);
    usleep(100 * 1000);
    for (int round = 0; round < 5; round++) {
        int64_t t0 = now_ms();
        const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
        CU_ASSERT_TRUE(now_ms() - t0 < 500);
        close_all(slow, SLOW); /* they come back */
        open_slow(fx, slow, SLOW);
        usleep(50 * 1000);
    }
    hs_http_counters c = hs_http_server_counters(fx->server);
    CU_ASSERT_EQUAL(c.answered, 5);
    CU_ASSERT_TRUE(c.evicted >= (SLOW - HS_HTTP_PEER_READING) * 5);
    close_all(slow, SLOW);
    finish(fx);
}

/* A request sent whole is read at accept, before the slow heads accepted with it can push
 * it out: here the server is busy building while the request and a burst of slow heads
 * queue up, accepted together afterwards. */
static void test_whole_request_read_at_accept(void) {
    fixture *fx = start(NULL, 5000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    atomic_store(&fx->fake.build_ms, 300);
    const char *whole = "GET /debug/pprof/allocs HTTP/1.1\r\n\r\n";
    int busy = connect_to(fx);
    const char *first = "GET /debug/pprof/heap HTTP/1.1\r\n\r\n";
    (void)!send(busy, first, strlen(first), MSG_NOSIGNAL);
    usleep(100 * 1000); /* the server builds for 300 ms */
    int scraper = connect_to(fx);
    (void)!send(scraper, whole, strlen(whole), MSG_NOSIGNAL);
    enum { SLOW = HS_HTTP_PEER_READING * 3 };
    int slow[SLOW];
    open_slow(fx, slow, SLOW);
    char buf[1024];
    read_all(scraper, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 200 OK\r\n"));
    close(scraper);
    close(busy);
    close_all(slow, SLOW);
    finish(fx);
}

/* Heads that time out or are evicted give their peer strikes: its next slow heads are cut
 * sooner (halved per strike), a head sent whole is not affected. */
static void test_strikes_shorten_deadline(void) {
    fixture *fx = start(NULL, 2400);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    enum { SLOW = HS_HTTP_PEER_READING + 3 }; /* three evictions: three strikes */
    int slow[SLOW];
    open_slow(fx, slow, SLOW);
    usleep(200 * 1000);
    close_all(slow, SLOW);
    int fd;
    open_slow(fx, &fd, 1);
    int64_t t0 = now_ms();
    char buf[64];
    CU_ASSERT_EQUAL(read_all(fd, buf, sizeof buf), 0);
    int64_t cut = now_ms() - t0;
    close(fd);
    CU_ASSERT_TRUE(cut >= 250 && cut < 1000); /* 2400 ms / 2^3 = 300 ms */
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    finish(fx);
}

/* ?seconds= answers wait in bounded numbers: HS_HTTP_MAX_LONG_WAITS long ones, then short
 * ones up to HS_HTTP_MAX_WAITING; past that 503 with Retry-After; plain requests are
 * served throughout. */
static void test_waits_bounded(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    int waiting[HS_HTTP_MAX_WAITING];
    const char *long_wait = "GET /debug/pprof/heap?seconds=300 HTTP/1.1\r\n\r\n";
    const char *short_wait = "GET /debug/pprof/heap?seconds=30 HTTP/1.1\r\n\r\n";
    for (int i = 0; i < HS_HTTP_MAX_LONG_WAITS; i++) {
        waiting[i] = connect_to(fx);
        (void)!send(waiting[i], long_wait, strlen(long_wait), MSG_NOSIGNAL);
    }
    usleep(100 * 1000);
    const char *r = exchange(fx, long_wait);
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 503 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Retry-After: 10\r\n"));
    for (int i = HS_HTTP_MAX_LONG_WAITS; i < HS_HTTP_MAX_WAITING; i++) {
        waiting[i] = connect_to(fx);
        (void)!send(waiting[i], short_wait, strlen(short_wait), MSG_NOSIGNAL);
    }
    usleep(100 * 1000);
    CU_ASSERT_PTR_NOT_NULL(strstr(exchange(fx, short_wait), "HTTP/1.1 503 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n"),
                                  "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.marks), HS_HTTP_MAX_WAITING); /* refused: no mark */
    close_all(waiting, HS_HTTP_MAX_WAITING);
    usleep(100 * 1000); /* the server sees them go */
    CU_ASSERT_PTR_NOT_NULL(strstr(exchange(fx, "GET /debug/pprof/heap?seconds=1 HTTP/1.1\r\n\r\n"),
                                  "HTTP/1.1 200 OK\r\n"));
    finish(fx);
}

/* Stop while a client holds a connection and a delta waits: it does not wait for them. */
static void test_stop_waits_for_no_peer(void) {
    fixture *fx = start(NULL, 600);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    int holder = connect_to(fx), delta = connect_to(fx);
    (void)!send(holder, "GET /debug", 10, MSG_NOSIGNAL);
    const char *req = "GET /debug/pprof/heap?seconds=300 HTTP/1.1\r\n\r\n";
    (void)!send(delta, req, strlen(req), MSG_NOSIGNAL);
    usleep(200 * 1000);
    int64_t t0 = now_ms();
    int marks = atomic_load(&fx->fake.marks);
    finish(fx);
    CU_ASSERT_TRUE(now_ms() - t0 < 1000);
    CU_ASSERT_EQUAL(marks, 1);
    close(holder);
    close(delta);
}

/* Without a token, only requests addressed to the loopback are served (DNS rebinding). */
static void test_host_check(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: attacker.example:6060\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 403 Forbidden\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "X-Heapsampler-Refused: Host is not a loopback name or address\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(body_of(r), "DNS rebinding"));
    CU_ASSERT_PTR_NULL(strstr(r, "attacker")); /* the Host is not echoed */
    r = exchange(fx, "GET /debug/pprof/heap?gc=1 HTTP/1.1\r\nHost: attacker.example\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 403 "));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), 0); /* nothing built, no GC forced */
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.gcs), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: localhost:6060\r\n\r\n"),
                                  "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                                  "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_EQUAL(hs_http_server_counters(fx->server).refused, 2);
    finish(fx);
    /* with a token, the token protects: any Host */
    fx = start("tok-123", 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: profiles.example\r\n"
                     "Authorization: Bearer tok-123\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    finish(fx);
}

/* /debug/pprof/symbol: Go's lookup, answered from the last ?debug=1 text; a POST body is
 * read (Content-Length), arriving in pieces. */
static void test_symbol_lookup(void) {
    fixture *fx = start(NULL, 2000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    const char *r = exchange(fx, "GET /debug/pprof/symbol HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_STRING_EQUAL(body_of(r), "num_symbols: 1\n");
    exchange(fx, "GET /debug/pprof/heap?debug=1 HTTP/1.1\r\n\r\n");
    r = exchange(fx, "GET /debug/pprof/symbol?0x1010+0x2 HTTP/1.1\r\n\r\n");
    CU_ASSERT_STRING_EQUAL(body_of(r), "num_symbols: 1\n0x1010 fake.Site.run\n");
    int fd = connect_to(fx);
    const char *head = "POST /debug/pprof/symbol HTTP/1.1\r\nContent-Length: 12\r\n\r\n0x5+";
    (void)!send(fd, head, strlen(head), MSG_NOSIGNAL);
    usleep(100 * 1000);
    (void)!send(fd, "0x1010+9", 8, MSG_NOSIGNAL);
    char buf[1024];
    read_all(fd, buf, sizeof buf);
    close(fd);
    CU_ASSERT_STRING_EQUAL(body_of(buf), "num_symbols: 1\n0x1010 fake.Site.run\n");
    r = exchange(fx, "DELETE /debug/pprof/symbol HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Allow: GET, HEAD, POST\r\n"));
    char big[128];
    snprintf(big, sizeof big, "POST /debug/pprof/symbol HTTP/1.1\r\nContent-Length: %d\r\n\r\n",
             HS_HTTP_BODY_MAX + 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(exchange(fx, big), "HTTP/1.1 413 "));
    finish(fx);
}

static void test_open_refusals(void) {
    hs_http_server *s = NULL, *t = NULL;
    char err[256];
    CU_ASSERT_EQUAL(hs_http_server_open("0.0.0.0", 0, false, &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a loopback address"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "http_token"));
    /* with a token, any address: bound, then closed at once (nothing is accepted) */
    CU_ASSERT_EQUAL(hs_http_server_open("0.0.0.0", 0, true, &s, err, sizeof err), 0);
    hs_http_server_close(s);
    CU_ASSERT_EQUAL(hs_http_server_open("localhost", 0, false, &s, err, sizeof err), 0);
    hs_http_server_close(s);
    CU_ASSERT_EQUAL(hs_http_server_open("127.0.0.1", 0, false, &s, err, sizeof err), 0);
    CU_ASSERT_TRUE(hs_http_server_port(s) > 0);
    char expect[32];
    snprintf(expect, sizeof expect, "127.0.0.1:%d", hs_http_server_port(s));
    CU_ASSERT_STRING_EQUAL(hs_http_server_address(s), expect);
    CU_ASSERT_EQUAL(hs_http_server_open("127.0.0.1", hs_http_server_port(s), false, &t, err,
                                        sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, strerror(EADDRINUSE))); /* glibc and musl word it differently */
    hs_http_server_close(s);
    CU_ASSERT_EQUAL(hs_http_server_open("no-such-host.invalid", 0, false, &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot resolve"));
}

/* --- the accept cap, one poll round at a time ------------------------------------------------- */

enum { MAX_LOGGED = 64 };

/* A handler that answers every request at once and logs its path with the round it came in. */
typedef struct {
    int round;
    int n;
    int rounds[MAX_LOGGED];
    char paths[MAX_LOGGED][32];
} request_log;

static long log_request(void *ctx, const hs_http_request *req, long max_wait_ms, hs_http_response *resp,
                        void **pending) {
    (void)max_wait_ms;
    (void)pending;
    request_log *log = ctx;
    if (log->n < MAX_LOGGED) {
        log->rounds[log->n] = log->round;
        snprintf(log->paths[log->n], sizeof log->paths[0], "%.31s", req->path);
        log->n++;
    }
    *resp = (hs_http_response){.status = 200, .content_type = "text/plain", .body = (uint8_t *)"ok\n",
                               .body_len = 3, .body_static = true};
    return 0;
}

static void never_resume(void *ctx, void *pending, hs_http_response *resp) {
    (void)ctx, (void)pending, (void)resp;
}

static void never_drop(void *ctx, void *pending) { (void)ctx, (void)pending; }

/* How many requests for path came in during round. */
static int logged(const request_log *log, const char *path, int round) {
    int n = 0;
    for (int i = 0; i < log->n; i++) n += log->rounds[i] == round && strcmp(log->paths[i], path) == 0;
    return n;
}

/* The server's listening socket, found among this process's descriptors by its port. */
static int listener_of(int port) {
    for (int fd = 3; fd < 1024; fd++) {
        int listening = 0;
        socklen_t len = sizeof listening;
        struct sockaddr_in a;
        socklen_t alen = sizeof a;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 && listening &&
            getsockname(fd, (struct sockaddr *)&a, &alen) == 0 && a.sin_family == AF_INET &&
            ntohs(a.sin_port) == port)
            return fd;
    }
    return -1;
}

/* TCP_INFO's unacked: for a listening socket the connections waiting in its accept queue
 * (with TCP_DEFER_ACCEPT, those whose first bytes arrived), for a connected one the
 * segments the peer has not acknowledged yet. */
static int tcp_unacked(int fd) {
    struct tcp_info info = {0};
    socklen_t len = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_unacked) + sizeof info.tcpi_unacked)
        return -1; /* qemu-user answers TCP options with an int */
    return (int)info.tcpi_unacked;
}

/* Waits (5 s at most) until tcp_unacked(fd) is want. */
static bool await_unacked(int fd, int want) {
    for (int i = 0; i < 5000; i++) {
        if (tcp_unacked(fd) == want) return true;
        usleep(1000);
    }
    return false;
}

/* A connect flood: 20 whole requests queued at once. One round accepts 8 of them, after
 * serving the request of a connection already held (its head completed just before), and
 * the rest wait in the backlog for the next rounds: 8, then 4. */
static void test_accept_cap_per_round(void) {
    enum { FLOOD = 20 };
    hs_http_server *s;
    char err[256];
    CU_ASSERT_FATAL(hs_http_server_open("127.0.0.1", 0, false, &s, err, sizeof err) == 0);
    request_log log = {0};
    hs_http_handler handler = {&log, log_request, never_resume, never_drop};
    fixture fx = {.server = s};
    int listener = listener_of(hs_http_server_port(s));
    CU_ASSERT_FATAL(listener >= 0);
    if (tcp_unacked(listener) < 0) {
        fprintf(stderr, "\n  TCP_INFO cannot count the accept queue here (qemu-user?): skipped ");
        hs_http_server_close(s);
        return;
    }

    int held = connect_to(&fx); /* accepted first, its head still arriving */
    const char *first = "GET /held HTTP/1.1\r\n";
    (void)!send(held, first, strlen(first), MSG_NOSIGNAL);
    CU_ASSERT_FATAL(await_unacked(listener, 1));
    CU_ASSERT_TRUE(hs_http_server_round(s, &handler));
    CU_ASSERT_EQUAL(tcp_unacked(listener), 0);
    CU_ASSERT_EQUAL(log.n, 0);

    const char *rest = "Host: 127.0.0.1\r\n\r\n";
    (void)!send(held, rest, strlen(rest), MSG_NOSIGNAL);
    CU_ASSERT_FATAL(await_unacked(held, 0)); /* in the server's socket */
    int flood[FLOOD];
    const char *whole = "GET /new HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    for (int i = 0; i < FLOOD; i++) {
        flood[i] = connect_to(&fx);
        (void)!send(flood[i], whole, strlen(whole), MSG_NOSIGNAL);
    }
    CU_ASSERT_FATAL(await_unacked(listener, FLOOD));

    int left = FLOOD;
    for (log.round = 1; log.round <= 3; log.round++) {
        CU_ASSERT_TRUE(hs_http_server_round(s, &handler));
        int want = left < HS_HTTP_ACCEPTS_PER_ROUND ? left : HS_HTTP_ACCEPTS_PER_ROUND;
        CU_ASSERT_EQUAL(logged(&log, "/new", log.round), want);
        left -= want;
        CU_ASSERT_EQUAL(tcp_unacked(listener), left);
    }
    CU_ASSERT_EQUAL(logged(&log, "/held", 1), 1);
    CU_ASSERT_STRING_EQUAL(log.paths[0], "/held"); /* served before the round's newcomers */
    CU_ASSERT_EQUAL(log.n, 1 + FLOOD);
    close(held);
    close_all(flood, FLOOD);
    hs_http_server_close(s);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"profiles, index, HEAD", test_profiles},
        {"errors as Go answers them", test_errors},
        {"one build shared", test_shared_build},
        {"debug=1 text, gc=1 bounded", test_debug_and_gc},
        {"delta (?seconds=)", test_delta},
        {"bearer token", test_token},
        {"oversized head", test_oversized},
        {"a trickling head is cut at its deadline", test_trickle_cut_at_deadline},
        {"slowloris cannot starve a whole request", test_slowloris_cannot_starve},
        {"a whole request is read at accept", test_whole_request_read_at_accept},
        {"strikes shorten a peer's deadline", test_strikes_shorten_deadline},
        {"waiting answers bounded", test_waits_bounded},
        {"stop waits for no peer", test_stop_waits_for_no_peer},
        {"Host check without a token", test_host_check},
        {"symbol lookup", test_symbol_lookup},
        {"refusals at opening", test_open_refusals},
        {"a connect flood: 8 accepts a round, a held connection served first", test_accept_cap_per_round},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("http_server", tests);
}
