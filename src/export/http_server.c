/* http_server.c: sockets and the poll() loop of the agent's endpoint (see http_server.h).
 *
 * Each connection goes READING (the request head, then a body announced by
 * Content-Length) -> WAITING (only when the handler answers later) -> WRITING (head, then
 * body) -> closed. Every state has a deadline on the monotonic clock; the loop's poll
 * timeout is the nearest one, so nothing waits past it. A self-pipe wakes the loop for
 * hs_http_server_stop.
 *
 * Fairness (why a scraper is answered while others misbehave): the kernel hands over a
 * connection only once its first bytes are there (TCP_DEFER_ACCEPT), and accept reads at
 * once, so a request sent whole is dispatched without ever holding a reading slot. What
 * arrives slowly competes for HS_HTTP_MAX_READING slots, per peer first: a newcomer evicts
 * the oldest slow head of its own peer, so a peer's sockets can only push each other out.
 * Peers whose heads time out or are evicted collect strikes, which shorten their next
 * deadlines; reconnecting does not reset them. */
#include "export/http_server.h"

#include "base/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LISTEN_BACKLOG 64
#define DEFER_ACCEPT_SECONDS 2 /* an idle connection is handed over after this anyway */
#define PEERS_TRACKED 32       /* peers whose strikes are remembered */
#define MAX_STRIKES 8

typedef enum { CONN_FREE = 0, CONN_READING, CONN_WAITING, CONN_WRITING } conn_state;

/* A peer: its IP address (IPv4 in the first 4 bytes), without the port. */
typedef struct {
    sa_family_t family;
    uint8_t addr[16];
} peer_id;

typedef struct {
    peer_id id;
    int strikes;
    int64_t last_ms; /* when strikes last changed; 0: free */
} peer_record;

typedef struct {
    conn_state state;
    int fd;
    peer_id peer;
    int64_t accepted_ms;
    int64_t deadline_ms;             /* read or write deadline; the wake time when WAITING */
    char in[HS_HTTP_HEAD_MAX + 1];   /* one byte past the limit: a full buffer is too large */
    size_t in_len;
    size_t head_len;                 /* of the head in `in`, once complete (a body follows) */
    char *body;                      /* the request body being read (malloc'd) */
    size_t body_len, body_want;
    void *pending;                   /* the handler's, while WAITING */
    bool long_wait;                  /* WAITING longer than HS_HTTP_LONG_WAIT_MS */
    bool head_only;                  /* HEAD: no body */
    char head[512];
    size_t out_head_len;
    hs_http_response resp;
    size_t sent;                     /* bytes of head + body sent */
} conn;

struct hs_http_server {
    int listen_fd;
    int wake[2];                     /* self-pipe: [0] polled, [1] written by stop */
    atomic_bool stopping;
    char address[80];
    char bound_host[INET6_ADDRSTRLEN]; /* numeric, without brackets or port */
    int port;
    int read_timeout_ms, write_timeout_ms;
    char *token;
    size_t token_len;
    conn conns[HS_HTTP_MAX_CONNECTIONS];
    peer_record peers[PEERS_TRACKED];
    int64_t accept_paused_until_ms;  /* after an accept error (no descriptors left) */
    atomic_ulong answered, refused, timed_out, evicted;
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- opening --------------------------------------------------------------------------------- */

static bool is_loopback(const struct sockaddr *sa) {
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family != AF_INET6) return false;
    const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

/* "host:port" of the bound socket into s->address, the host alone into s->bound_host. */
static void describe_bound(hs_http_server *s) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(s->listen_fd, (struct sockaddr *)&ss, &len) != 0) return;
    if (ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
        inet_ntop(AF_INET6, &a->sin6_addr, s->bound_host, sizeof s->bound_host);
        s->port = ntohs(a->sin6_port);
        snprintf(s->address, sizeof s->address, "[%s]:%d", s->bound_host, s->port);
    } else {
        const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
        inet_ntop(AF_INET, &a->sin_addr, s->bound_host, sizeof s->bound_host);
        s->port = ntohs(a->sin_port);
        snprintf(s->address, sizeof s->address, "%s:%d", s->bound_host, s->port);
    }
}

/* Binds and listens on the first address of host. 0, or -1 with err (errno kept). */
static int listen_on(hs_http_server *s, const char *host, int port, bool remote_allowed,
                     char *err, size_t errlen) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV}, *ai = NULL;
    int rc = getaddrinfo(host, service, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(rc));
        errno = EINVAL;
        return -1;
    }
    if (!is_loopback(ai->ai_addr) && !remote_allowed) {
        snprintf(err, errlen, "'%s' is not a loopback address: serving profiles beyond this "
                 "host needs http_token=@FILE (a bearer token clients must send)", host);
        freeaddrinfo(ai);
        errno = EACCES;
        return -1;
    }
    s->listen_fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1, defer = DEFER_ACCEPT_SECONDS;
    if (s->listen_fd < 0 ||
        setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(s->listen_fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
        listen(s->listen_fd, LISTEN_BACKLOG) != 0) {
        int saved = errno;
        snprintf(err, errlen, "cannot listen on %s port %d: %s", host, port, strerror(saved));
        freeaddrinfo(ai);
        errno = saved;
        return -1;
    }
    /* best effort: without it, a head that is not there at accept takes a reading slot */
    (void)setsockopt(s->listen_fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer, sizeof defer);
    freeaddrinfo(ai);
    describe_bound(s);
    return 0;
}

int hs_http_server_open(const char *host, int port, bool remote_allowed, hs_http_server **out,
                        char *err, size_t errlen) {
    *out = NULL;
    hs_http_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        errno = ENOMEM;
        return -1;
    }
    s->listen_fd = -1;
    s->read_timeout_ms = HS_HTTP_READ_TIMEOUT_MS;
    s->write_timeout_ms = HS_HTTP_WRITE_TIMEOUT_MS;
    s->wake[0] = s->wake[1] = -1;
    if (pipe2(s->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        int saved = errno;
        snprintf(err, errlen, "cannot create a pipe: %s", strerror(saved));
        hs_http_server_close(s);
        errno = saved;
        return -1;
    }
    if (listen_on(s, host, port, remote_allowed, err, errlen) != 0) {
        int saved = errno;
        hs_http_server_close(s);
        errno = saved;
        return -1;
    }
    *out = s;
    return 0;
}

const char *hs_http_server_address(const hs_http_server *s) { return s->address; }
int hs_http_server_port(const hs_http_server *s) { return s->port; }

void hs_http_server_set_timeouts(hs_http_server *s, int read_ms, int write_ms) {
    s->read_timeout_ms = read_ms;
    s->write_timeout_ms = write_ms;
}

int hs_http_server_set_token(hs_http_server *s, const char *token, size_t len) {
    s->token = malloc(len + 1);
    if (!s->token) return -1;
    memcpy(s->token, token, len);
    s->token[len] = '\0';
    s->token_len = len;
    return 0;
}

hs_http_counters hs_http_server_counters(const hs_http_server *s) {
    hs_http_counters c = {atomic_load(&s->answered), atomic_load(&s->refused),
                          atomic_load(&s->timed_out), atomic_load(&s->evicted)};
    return c;
}

/* --- peers and their strikes ----------------------------------------------------------------- */

static peer_id peer_of(const struct sockaddr_storage *ss) {
    peer_id p = {.family = ss->ss_family};
    if (ss->ss_family == AF_INET)
        memcpy(p.addr, &((const struct sockaddr_in *)ss)->sin_addr, 4);
    else if (ss->ss_family == AF_INET6)
        memcpy(p.addr, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
    return p;
}

static bool same_peer(const peer_id *a, const peer_id *b) {
    return a->family == b->family && memcmp(a->addr, b->addr, sizeof a->addr) == 0;
}

/* The peer's strikes as of now (faded with time), its record updated. */
static int current_strikes(peer_record *r, int64_t now) {
    int64_t faded = (now - r->last_ms) / HS_HTTP_STRIKE_FADE_MS;
    if (faded > 0) {
        r->strikes = faded >= r->strikes ? 0 : r->strikes - (int)faded;
        r->last_ms += faded * HS_HTTP_STRIKE_FADE_MS;
    }
    return r->strikes;
}

static peer_record *find_peer(hs_http_server *s, const peer_id *id) {
    for (int i = 0; i < PEERS_TRACKED; i++)
        if (s->peers[i].last_ms && same_peer(&s->peers[i].id, id)) return &s->peers[i];
    return NULL;
}

/* One strike for the peer (its head timed out or was evicted). */
static void strike(hs_http_server *s, const peer_id *id) {
    int64_t now = now_ms();
    peer_record *r = find_peer(s, id);
    if (!r) { /* the record unused the longest makes room */
        r = &s->peers[0];
        for (int i = 1; i < PEERS_TRACKED; i++)
            if (s->peers[i].last_ms < r->last_ms) r = &s->peers[i];
        *r = (peer_record){.id = *id, .last_ms = now};
    }
    if (current_strikes(r, now) < MAX_STRIKES) r->strikes++;
    r->last_ms = now;
}

/* How long a head of this peer may take to arrive: the read timeout, halved per strike. */
static int64_t head_budget_ms(hs_http_server *s, const peer_id *id) {
    peer_record *r = find_peer(s, id);
    int strikes = r ? current_strikes(r, now_ms()) : 0;
    int64_t budget = s->read_timeout_ms;
    for (int i = 0; i < strikes && budget / 2 >= HS_HTTP_READ_MIN_MS; i++) budget /= 2;
    return budget;
}

/* --- connections ----------------------------------------------------------------------------- */

/* Closes fd after reading (without waiting) what the peer sent and nobody read: closing a
 * socket with unread input resets the connection, and the peer could lose the response. */
static void drain_and_close(int fd) {
    char scratch[4096];
    for (int i = 0; i < 4 && recv(fd, scratch, sizeof scratch, MSG_DONTWAIT) > 0; i++) {
    }
    close(fd);
}

static void free_body(hs_http_response *resp) {
    if (!resp->body_static) free(resp->body);
    resp->body = NULL;
    resp->body_len = 0;
}

static void close_conn(const hs_http_handler *h, conn *c) {
    if (c->state == CONN_WAITING && h) h->drop(h->ctx, c->pending);
    free_body(&c->resp);
    free(c->body);
    drain_and_close(c->fd);
    memset(c, 0, sizeof *c); /* CONN_FREE */
}

static int count_in(const hs_http_server *s, conn_state state, const peer_id *peer,
                    bool long_only) {
    int n = 0;
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) {
        const conn *c = &s->conns[i];
        if (c->state == state && (!peer || same_peer(&c->peer, peer)) && (!long_only || c->long_wait))
            n++;
    }
    return n;
}

/* The longest an answer may wait now: 0 when every waiting slot is taken. */
static long wait_room_ms(const hs_http_server *s) {
    if (count_in(s, CONN_WAITING, NULL, false) >= HS_HTTP_MAX_WAITING) return 0;
    if (count_in(s, CONN_WAITING, NULL, true) >= HS_HTTP_MAX_LONG_WAITS)
        return HS_HTTP_LONG_WAIT_MS;
    return (long)1 << 30;
}

/* Moves c to WRITING with resp (its head formatted now). */
static void start_writing(hs_http_server *s, conn *c, hs_http_response *resp) {
    c->resp = *resp;
    size_t body = c->head_only ? 0 : c->resp.body_len;
    c->out_head_len = hs_http_format_head(c->resp.status, c->resp.content_type,
                                          c->resp.body_len, c->resp.extra_headers, c->head,
                                          sizeof c->head);
    if (c->out_head_len >= sizeof c->head) c->out_head_len = sizeof c->head - 1; /* never */
    if (c->head_only) free_body(&c->resp);
    c->resp.body_len = body;
    c->sent = 0;
    c->state = CONN_WRITING;
    c->deadline_ms = now_ms() + s->write_timeout_ms;
}

/* A short plain-text answer (errors). */
static void answer_text(hs_http_server *s, conn *c, int status, const char *text,
                        const char *extra) {
    hs_http_response resp = {.status = status, .content_type = "text/plain; charset=utf-8",
                             .body = (uint8_t *)text, .body_len = strlen(text),
                             .body_static = true};
    snprintf(resp.extra_headers, sizeof resp.extra_headers, "%s", extra ? extra : "");
    start_writing(s, c, &resp);
}

/* The parser's refusals (hs_http_parse_request). */
static void answer_error(hs_http_server *s, conn *c, int status) {
    const char *text = "Bad Request\n";
    if (status == 413) text = "Content Too Large\n";
    else if (status == 414) text = "URI Too Long\n";
    else if (status == 431) text = "Request Header Fields Too Large\n";
    else if (status == 505) text = "HTTP Version Not Supported\n";
    atomic_fetch_add(&s->refused, 1);
    answer_text(s, c, status, text, NULL);
}

static const char HOST_REFUSED[] =
    "Forbidden: the Host header names neither localhost nor a loopback address. Without "
    "http_token= the endpoint answers only requests addressed to this machine's loopback "
    "(a web page using DNS rebinding sends its own name); serving other names needs "
    "http_token=@FILE.\n";

/* Host and token: true when the request may go to the handler, else answered here. */
static bool admitted(hs_http_server *s, conn *c, const hs_http_request *req) {
    if (s->token) {
        if (req->has_authorization && hs_http_bearer_matches(req->authorization,
                                                             req->authorization_len,
                                                             s->token, s->token_len))
            return true;
        atomic_fetch_add(&s->refused, 1);
        answer_text(s, c, 401, "Unauthorized\n",
                    "WWW-Authenticate: Bearer realm=\"heapsampler\"\r\n");
        return false;
    }
    if (!req->has_host || hs_http_host_is_local(req->host, s->bound_host)) return true;
    atomic_fetch_add(&s->refused, 1);
    answer_text(s, c, 403, HOST_REFUSED,
                "X-Heapsampler-Refused: Host is not a loopback name or address\r\n");
    return false;
}

/* The request (head and body) is complete: checks Host and token, then asks the handler. */
static void dispatch(hs_http_server *s, const hs_http_handler *h, conn *c,
                     const hs_http_request *req) {
    c->head_only = req->method == HS_HTTP_HEAD;
    if (!admitted(s, c, req)) return;
    hs_http_response resp = {0};
    void *pending = NULL;
    long room = wait_room_ms(s);
    long later = h->handle(h->ctx, req, room, &resp, &pending);
    if (later > 0) {
        c->state = CONN_WAITING;
        c->pending = pending;
        c->long_wait = later > HS_HTTP_LONG_WAIT_MS;
        c->deadline_ms = now_ms() + later;
        return;
    }
    start_writing(s, c, &resp);
}

/* The head is in c->in: starts reading its body, or dispatches. */
static void head_complete(hs_http_server *s, const hs_http_handler *h, conn *c,
                          hs_http_request *req) {
    if (req->content_length > 0 && !req->has_transfer_encoding) {
        size_t want = (size_t)req->content_length, have = c->in_len - req->head_len;
        if (!c->body && !(c->body = malloc(want))) {
            close_conn(h, c);
            return;
        }
        if (c->head_len == 0) { /* the body's first bytes came with the head */
            c->head_len = req->head_len;
            c->body_want = want;
            c->body_len = have < want ? have : want;
            memcpy(c->body, c->in + req->head_len, c->body_len);
        }
        if (c->body_len < c->body_want) return;
        req->body = c->body;
        req->body_len = c->body_len;
    }
    dispatch(s, h, c, req);
}

/* Reads what the peer sent: the head into c->in, then the body into c->body. false when
 * the connection was closed. */
static bool receive(const hs_http_handler *h, conn *c) {
    char *to = c->head_len ? c->body + c->body_len : c->in + c->in_len;
    size_t room = c->head_len ? c->body_want - c->body_len : sizeof c->in - c->in_len;
    ssize_t n = recv(c->fd, to, room, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
    if (n <= 0) {
        close_conn(h, c);
        return false;
    }
    if (c->head_len) c->body_len += (size_t)n;
    else c->in_len += (size_t)n;
    return true;
}

static void on_readable(hs_http_server *s, const hs_http_handler *h, conn *c) {
    if (!receive(h, c)) return;
    hs_http_request *req = malloc(sizeof *req); /* ~6 KiB: kept off the agent thread's stack */
    if (!req) {
        close_conn(h, c);
        return;
    }
    int status = hs_http_parse_request(c->in, c->head_len ? c->head_len : c->in_len, req);
    if (status == 0) head_complete(s, h, c, req);
    else if (status != HS_HTTP_INCOMPLETE) answer_error(s, c, status);
    free(req);
}

/* Sends what the socket takes; closes the connection when all is sent. */
static void on_writable(hs_http_server *s, const hs_http_handler *h, conn *c) {
    for (;;) {
        const uint8_t *from;
        size_t left;
        if (c->sent < c->out_head_len) {
            from = (const uint8_t *)c->head + c->sent;
            left = c->out_head_len - c->sent;
        } else {
            size_t body_sent = c->sent - c->out_head_len;
            from = c->resp.body + body_sent;
            left = c->resp.body_len - body_sent;
        }
        if (left == 0) {
            atomic_fetch_add(&s->answered, 1);
            shutdown(c->fd, SHUT_WR);
            close_conn(h, c);
            return;
        }
        ssize_t n = send(c->fd, from, left, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close_conn(h, c);
            return;
        }
        c->sent += (size_t)n;
    }
}

/* One more connection than there is room for: a best-effort 503, then closed. */
static void refuse_busy(hs_http_server *s, int fd) {
    static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; "
                               "charset=utf-8\r\nContent-Length: 17\r\nConnection: close\r\n"
                               "Retry-After: 1\r\n\r\nToo many clients\n";
    (void)!send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    shutdown(fd, SHUT_WR);
    drain_and_close(fd);
    atomic_fetch_add(&s->refused, 1);
}

/* The reading connection accepted first, of peer (NULL: of any), other than except. */
static conn *oldest_reading(hs_http_server *s, const peer_id *peer, const conn *except) {
    conn *oldest = NULL;
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) {
        conn *c = &s->conns[i];
        if (c->state != CONN_READING || c == except || (peer && !same_peer(&c->peer, peer)))
            continue;
        if (!oldest || c->accepted_ms < oldest->accepted_ms) oldest = c;
    }
    return oldest;
}

/* Closes a slow head to make room; its peer gets a strike. */
static void evict(hs_http_server *s, const hs_http_handler *h, conn *victim) {
    strike(s, &victim->peer);
    atomic_fetch_add(&s->evicted, 1);
    close_conn(h, victim);
}

/* c's head is still arriving: it keeps its reading slot within the limits, evicting the
 * oldest slow head of its own peer, or of the peer holding the most reading slots. */
static void make_reading_room(hs_http_server *s, const hs_http_handler *h, conn *c) {
    conn *victim = NULL;
    if (count_in(s, CONN_READING, &c->peer, false) > HS_HTTP_PEER_READING) {
        victim = oldest_reading(s, &c->peer, c);
    } else if (count_in(s, CONN_READING, NULL, false) > HS_HTTP_MAX_READING) {
        const conn *greediest = NULL;
        int most = 0;
        for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) {
            const conn *r = &s->conns[i];
            int n = r->state == CONN_READING ? count_in(s, CONN_READING, &r->peer, false) : 0;
            if (n > most) {
                most = n;
                greediest = r;
            }
        }
        victim = greediest ? oldest_reading(s, &greediest->peer, c) : NULL;
    }
    if (victim) evict(s, h, victim);
}

/* A free connection slot, making one by evicting the oldest slow head if needed. */
static conn *free_slot(hs_http_server *s, const hs_http_handler *h) {
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++)
        if (s->conns[i].state == CONN_FREE) return &s->conns[i];
    conn *victim = oldest_reading(s, NULL, NULL);
    if (!victim) return NULL;
    evict(s, h, victim);
    return victim; /* now free */
}

/* A new connection: read at once; served now when its request arrived whole. */
static void admit(hs_http_server *s, const hs_http_handler *h, int fd,
                  const struct sockaddr_storage *from) {
    conn *c = free_slot(s, h);
    if (!c) {
        refuse_busy(s, fd);
        return;
    }
    c->fd = fd;
    c->peer = peer_of(from);
    c->state = CONN_READING;
    c->accepted_ms = now_ms();
    c->deadline_ms = c->accepted_ms + head_budget_ms(s, &c->peer);
    on_readable(s, h, c);
    if (c->state == CONN_READING) make_reading_room(s, h, c);
}

/* Accepts what waits, HS_HTTP_ACCEPTS_PER_ROUND at most: the rest of a flood waits in the
 * backlog for the next round, after the connections held now are served. */
static void accept_some(hs_http_server *s, const hs_http_handler *h) {
    for (int accepted = 0; accepted < HS_HTTP_ACCEPTS_PER_ROUND; accepted++) {
        struct sockaddr_storage from = {0};
        socklen_t len = sizeof from;
        int fd = accept4(s->listen_fd, (struct sockaddr *)&from, &len,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            /* EMFILE and the like would wake every poll at once: stop polling the listening
             * socket for a while (the pending connection waits in the backlog). */
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
                errno != ECONNABORTED)
                s->accept_paused_until_ms = now_ms() + 200;
            return;
        }
        admit(s, h, fd, &from);
        if (atomic_load(&s->stopping)) return;
    }
}

/* Deadlines passed: WAITING connections get their answer, others are cut off. */
static void on_deadlines(hs_http_server *s, const hs_http_handler *h) {
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) {
        conn *c = &s->conns[i];
        if (c->state == CONN_FREE || now_ms() < c->deadline_ms) continue;
        if (c->state == CONN_WAITING) {
            hs_http_response resp = {0};
            c->state = CONN_READING; /* the handler owns pending from here on */
            h->resume(h->ctx, c->pending, &resp);
            c->pending = NULL;
            start_writing(s, c, &resp);
            continue;
        }
        if (c->state == CONN_READING) strike(s, &c->peer);
        atomic_fetch_add(&s->timed_out, 1);
        close_conn(h, c);
    }
}

/* --- the loop -------------------------------------------------------------------------------- */

/* Fills fds (listen, wake, then one per connection; index i + 2 is conns[i] or unused) and
 * returns the poll timeout: the nearest deadline, at most a second. */
static int prepare_poll(hs_http_server *s, struct pollfd *fds) {
    int64_t now = now_ms(), timeout = 1000;
    bool paused = now < s->accept_paused_until_ms;
    fds[0] = (struct pollfd){.fd = paused ? -1 : s->listen_fd, .events = POLLIN};
    fds[1] = (struct pollfd){.fd = s->wake[0], .events = POLLIN};
    if (paused) timeout = s->accept_paused_until_ms - now;
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) {
        conn *c = &s->conns[i];
        static const short events[] = {[CONN_FREE] = 0, [CONN_READING] = POLLIN,
                                       [CONN_WAITING] = POLLRDHUP, [CONN_WRITING] = POLLOUT};
        fds[i + 2] = (struct pollfd){.fd = c->state == CONN_FREE ? -1 : c->fd,
                                     .events = events[c->state]};
        if (c->state != CONN_FREE && c->deadline_ms - now < timeout)
            timeout = c->deadline_ms - now;
    }
    return timeout < 0 ? 0 : (int)timeout;
}

/* The connections held, in slot order: what poll found them ready for. */
static void serve_held(hs_http_server *s, const hs_http_handler *h, const struct pollfd *fds, int n) {
    for (int i = 0; n > 0 && i < HS_HTTP_MAX_CONNECTIONS; i++) {
        conn *c = &s->conns[i];
        short re = fds[i + 2].revents;
        if (!re || c->state == CONN_FREE || c->fd != fds[i + 2].fd) continue;
        if (c->state == CONN_WAITING) close_conn(h, c); /* the client hung up */
        else if (re & (POLLERR | POLLNVAL)) close_conn(h, c);
        else if (c->state == CONN_READING) on_readable(s, h, c);
        else if (c->state == CONN_WRITING) on_writable(s, h, c);
        if (atomic_load(&s->stopping)) break;
    }
}

bool hs_http_server_round(hs_http_server *s, const hs_http_handler *h) {
    struct pollfd fds[HS_HTTP_MAX_CONNECTIONS + 2];
    int timeout = prepare_poll(s, fds);
    int n = poll(fds, HS_HTTP_MAX_CONNECTIONS + 2, timeout);
    if (n < 0 && errno != EINTR) {
        hs_warn("http: poll failed (%s): no longer serving", strerror(errno));
        return false;
    }
    if (atomic_load(&s->stopping)) return false;
    serve_held(s, h, fds, n);
    on_deadlines(s, h);
    if (n > 0 && (fds[0].revents & POLLIN)) accept_some(s, h);
    return true;
}

void hs_http_server_run(hs_http_server *s, const hs_http_handler *h) {
    while (!atomic_load(&s->stopping) && hs_http_server_round(s, h)) {
    }
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++)
        if (s->conns[i].state != CONN_FREE) close_conn(h, &s->conns[i]);
}

void hs_http_server_stop(hs_http_server *s) {
    atomic_store(&s->stopping, true);
    (void)!write(s->wake[1], "x", 1);
}

void hs_http_server_close(hs_http_server *s) {
    if (!s) return;
    for (int i = 0; i < HS_HTTP_MAX_CONNECTIONS; i++) /* run drops pending ones; never ran: none */
        if (s->conns[i].state != CONN_FREE) close_conn(NULL, &s->conns[i]);
    if (s->listen_fd >= 0) close(s->listen_fd);
    if (s->wake[0] >= 0) close(s->wake[0]);
    if (s->wake[1] >= 0) close(s->wake[1]);
    if (s->token) {
        explicit_bzero(s->token, s->token_len);
        free(s->token);
    }
    free(s);
}
