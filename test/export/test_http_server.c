/* test_http_server.c: the endpoint's server and routes over real sockets on 127.0.0.1,
 * with a fake profile source: Go's answers (status, headers, bodies), the delta, sharing
 * one build, the token, the connection limit, read timeouts against a slow client, a stop
 * that does not wait for peers, and the refusals at opening (non-loopback, port in use).
 * Every wait is bounded (socket timeouts, joins after stop). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "export/http_server.h"
#include "export/pprof_routes.h"
#include "unit.h"

/* --- a fake profile source ------------------------------------------------------------------- */

typedef struct {
    atomic_int builds, marks, releases, fail, gcs;
    char last_default[32];
    bool last_delta;
    int last_format;
} fake_source;

static int fake_build(void *ctx, const hs_export_profile *what, uint8_t **out, size_t *len) {
    fake_source *f = ctx;
    if (atomic_load(&f->fail)) return -1;
    int n = atomic_fetch_add(&f->builds, 1) + 1;
    snprintf(f->last_default, sizeof f->last_default, "%s", what->default_type);
    f->last_delta = what->baseline != NULL;
    f->last_format = what->format;
    if (what->gc) atomic_fetch_add(&f->gcs, 1);
    char body[64];
    int blen = snprintf(body, sizeof body, "profile %d %s%s", n, what->default_type,
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
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nHost: x\r\n\r\n");
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
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href=\"heap\""));
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
    r = exchange(fx, "GET /debug/pprof/goroutine HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 404 Not Found\r\n"));
    CU_ASSERT_STRING_EQUAL(body_of(r), "Unknown profile\n");
    r = exchange(fx, "GET /metrics HTTP/1.1\r\n\r\n");
    CU_ASSERT_STRING_EQUAL(body_of(r), "404 page not found\n");
    r = exchange(fx, "GET /debug/pprof HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 301 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "Location: /debug/pprof/\r\n"));
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
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_TEXT_ALL);
    CU_ASSERT_STRING_EQUAL(fx->fake.last_default, "inuse_space");
    exchange(fx, "GET /debug/pprof/allocs?debug=1 HTTP/1.1\r\n\r\n");
    CU_ASSERT_EQUAL(fx->fake.last_format, HS_EXPORT_TEXT_ALL);
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
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href=\"heap?gc=1\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href=\"heap?debug=1\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "href=\"heap?seconds=30\""));
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
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\nAuthorization: Bearer tok-123\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_EQUAL(atomic_load(&fx->fake.builds), 1); /* only the authorized one built */
    CU_ASSERT_EQUAL(hs_http_server_counters(fx->server).refused, 2);
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

/* Slow and idle clients: cut at the read timeout; the limit on connections answers one
 * more with 503; the others are served meanwhile; stop does not wait for any of them. */
static void test_slow_clients_and_limit(void) {
    fixture *fx = start(NULL, 600);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    int idle[HS_HTTP_MAX_CONNECTIONS];
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) idle[i] = connect_to(fx);
    (void)!send(idle[0], "G", 1, MSG_NOSIGNAL); /* a trickle that never completes */
    usleep(100 * 1000);
    const char *r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 503 "));
    /* the server cuts them at the read timeout, however the trickle goes on: each sees EOF
     * well before its 5 s receive timeout */
    int64_t t0 = now_ms();
    for (int i = 0; i < 15; i++) { /* a byte every 100 ms, past the 600 ms timeout */
        (void)!send(idle[0], "E", 1, MSG_NOSIGNAL);
        usleep(100 * 1000);
    }
    char buf[64];
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) {
        CU_ASSERT_EQUAL(read_all(idle[i], buf, sizeof buf), 0);
        close(idle[i]);
    }
    CU_ASSERT_TRUE(now_ms() - t0 < 2500);
    CU_ASSERT_EQUAL(hs_http_server_counters(fx->server).timed_out, HS_HTTP_MAX_CONNECTIONS);
    r = exchange(fx, "GET /debug/pprof/heap HTTP/1.1\r\n\r\n"); /* room again */
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "HTTP/1.1 200 OK\r\n"));

    /* stop while a client holds a connection and a delta waits */
    int holder = connect_to(fx), delta = connect_to(fx);
    (void)!send(holder, "GET /debug", 10, MSG_NOSIGNAL);
    const char *req = "GET /debug/pprof/heap?seconds=300 HTTP/1.1\r\n\r\n";
    (void)!send(delta, req, strlen(req), MSG_NOSIGNAL);
    usleep(200 * 1000);
    t0 = now_ms();
    int marks = atomic_load(&fx->fake.marks);
    finish(fx);
    CU_ASSERT_TRUE(now_ms() - t0 < 1000);
    CU_ASSERT_EQUAL(marks, 1);
    close(holder);
    close(delta);
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
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "Address already in use"));
    hs_http_server_close(s);
    CU_ASSERT_EQUAL(hs_http_server_open("no-such-host.invalid", 0, false, &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot resolve"));
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
        {"slow clients, connection limit, stop", test_slow_clients_and_limit},
        {"refusals at opening", test_open_refusals},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("http_server", tests);
}
