/* test_push.c: the push queue and its retry policy (src/export/push_sink.c) with a driven
 * clock and random source, and Pyroscope's wire format (src/export/pyroscope_ingest.c):
 * URL, service and label checks, the ingest URL, the Authorization header, the default
 * service name, and Retry-After (src/export/http_message.c). */
#include <stdlib.h>
#include <string.h>

#include "export/http_message.h"
#include "export/push_sink.h"
#include "export/push_transport.h"
#include "export/pyroscope_ingest.h"
#include "unit.h"

/* --- a driven clock -------------------------------------------------------------------------- */

typedef struct {
    int64_t now;
    uint64_t random;
} fake_clock;

static int64_t fake_now(void *ctx) { return ((fake_clock *)ctx)->now; }
static uint64_t fake_random(void *ctx) { return ((fake_clock *)ctx)->random; }

static const hs_push_policy POLICY = {.max_profiles = 4, .max_bytes = 1000,
                                      .backoff_min_ms = 500, .backoff_max_ms = 8000,
                                      .retry_after_max_ms = 60000, .max_age_ms = 3600000};

static uint8_t *bytes(size_t n) { return calloc(n ? n : 1, 1); }

static hs_push_outcome answer(int status) {
    return (hs_push_outcome){.status = status, .retry_after_ms = -1};
}

static void test_classify(void) {
    hs_push_outcome o = answer(200);
    CU_ASSERT_EQUAL(hs_push_classify(&o, 0), HS_PUSH_SENT);
    o = answer(204);
    o.timed_out = true; /* a 2xx status line, then a trickling body: taken all the same */
    CU_ASSERT_EQUAL(hs_push_classify(&o, 1), HS_PUSH_SENT);
    int retried[] = {0, 500, 502, 503, 429, 408};
    for (size_t i = 0; i < sizeof retried / sizeof retried[0]; i++) {
        o = answer(retried[i]);
        CU_ASSERT_EQUAL(hs_push_classify(&o, 0), HS_PUSH_RETRY);
    }
    o = answer(0);
    o.timed_out = true; /* before the request was out: it cannot have arrived */
    CU_ASSERT_EQUAL(hs_push_classify(&o, 3), HS_PUSH_RETRY);
    o.sent_whole = true; /* it went out whole: once more, then dropped */
    CU_ASSERT_EQUAL(hs_push_classify(&o, 0), HS_PUSH_RESEND);
    CU_ASSERT_EQUAL(hs_push_classify(&o, 1), HS_PUSH_UNANSWERED);
    o = answer(500);
    o.sent_whole = true; /* an answer came: not "unanswered" */
    CU_ASSERT_EQUAL(hs_push_classify(&o, 1), HS_PUSH_RETRY);
    int refused[] = {400, 401, 403, 404, 413, 301};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        o = answer(refused[i]);
        CU_ASSERT_EQUAL(hs_push_classify(&o, 0), HS_PUSH_REJECTED);
    }
    o = answer(0); /* a redirect loop, a redirect to http from https or to file:// */
    o.permanent = true;
    CU_ASSERT_EQUAL(hs_push_classify(&o, 0), HS_PUSH_REJECTED);
}

/* A profile sent whole without an answer is sent once more with the same window, and
 * dropped after a second such try; the next one is not affected by it. */
static void test_unanswered_twice_dropped(void) {
    fake_clock c = {.now = 0, .random = 0};
    hs_push_clock clock = {fake_now, fake_random, &c};
    hs_push_sink *s = hs_push_sink_create(&POLICY, &clock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int64_t t0 = 1700000000123456789LL, t1 = t0 + 1000000000, t2 = t1 + 999999999;
    hs_push_sink_add(s, bytes(10), 10, t0, t1);
    hs_push_sink_add(s, bytes(10), 10, t1, t2);
    hs_push_outcome silent = answer(0);
    silent.timed_out = silent.sent_whole = true;
    int64_t wait;
    const hs_push_profile *p = hs_push_sink_due(s, &wait);
    const uint8_t *body = p->body;
    CU_ASSERT_EQUAL(hs_push_sink_settle(s, &silent), HS_PUSH_RESEND);
    c.now += 10000;
    p = hs_push_sink_due(s, &wait);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p); /* the same window, the same bytes */
    CU_ASSERT_EQUAL(p->from, t0);
    CU_ASSERT_EQUAL(p->until, t1);
    CU_ASSERT_PTR_EQUAL(p->body, body);
    CU_ASSERT_EQUAL(p->unanswered, 1);
    CU_ASSERT_EQUAL(hs_push_sink_settle(s, &silent), HS_PUSH_UNANSWERED);
    p = hs_push_sink_due(s, &wait);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->from, t1); /* starts where the dropped one ended */
    CU_ASSERT_EQUAL(p->unanswered, 0);
    hs_push_outcome ok = answer(200);
    CU_ASSERT_EQUAL(hs_push_sink_settle(s, &ok), HS_PUSH_SENT);
    hs_push_counters k = hs_push_sink_counters(s);
    CU_ASSERT_EQUAL(k.resent, 1);
    CU_ASSERT_EQUAL(k.retried, 1);
    CU_ASSERT_EQUAL(k.dropped_unanswered, 1);
    CU_ASSERT_EQUAL(k.sent, 1);
    CU_ASSERT_EQUAL(k.queued, 0);
    hs_push_sink_destroy(s);
}

static void test_redirect_protocols(void) {
    CU_ASSERT_STRING_EQUAL(hs_push_redirect_protocols("https://profiles.example"), "https");
    CU_ASSERT_STRING_EQUAL(hs_push_redirect_protocols("http://127.0.0.1:4040"), "http,https");
}

static void test_backoff_doubles_with_jitter_and_cap(void) {
    /* attempt 1: d = 500, drawn in [250, 500]; 2: 1000; ... capped at 8000 */
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 1, 0), 250);
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 1, 250), 500);
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 1, 251), 250); /* modulo 251 */
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 2, 0), 500);
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 3, 1000), 2000);
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 10, 0), 4000);
    CU_ASSERT_EQUAL(hs_push_backoff_ms(&POLICY, 60, 4000), 8000);
    for (uint64_t r = 0; r < 5000; r += 7) {
        int64_t w = hs_push_backoff_ms(&POLICY, 4, r);
        CU_ASSERT(w >= 2000 && w <= 4000);
    }
}

static void test_order_and_retry(void) {
    fake_clock c = {.now = 1000, .random = 0};
    hs_push_clock clock = {fake_now, fake_random, &c};
    hs_push_sink *s = hs_push_sink_create(&POLICY, &clock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int64_t wait;
    CU_ASSERT_PTR_NULL(hs_push_sink_due(s, &wait));
    CU_ASSERT_EQUAL(wait, -1);
    hs_push_sink_add(s, bytes(10), 10, 100, 101);
    hs_push_sink_add(s, bytes(10), 10, 101, 102);
    const hs_push_profile *p = hs_push_sink_due(s, &wait);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->seq, 1);
    CU_ASSERT_EQUAL(p->from, 100);
    hs_push_outcome down = answer(0);
    snprintf(down.detail, sizeof down.detail, "Couldn't connect");
    CU_ASSERT_EQUAL(hs_push_sink_settle(s, &down), HS_PUSH_RETRY);
    /* the first waits 250 ms (random 0); the second waits behind it */
    CU_ASSERT_PTR_NULL(hs_push_sink_due(s, &wait));
    CU_ASSERT_EQUAL(wait, 250);
    c.now += 250;
    p = hs_push_sink_due(s, &wait);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->seq, 1);
    CU_ASSERT_EQUAL(p->attempts, 1);
    hs_push_outcome busy = answer(429);
    busy.retry_after_ms = 3000; /* honoured over the backoff */
    hs_push_sink_settle(s, &busy);
    CU_ASSERT_PTR_NULL(hs_push_sink_due(s, &wait));
    CU_ASSERT_EQUAL(wait, 3000);
    c.now += 3000;
    hs_push_outcome ok = answer(200);
    CU_ASSERT_PTR_NOT_NULL(hs_push_sink_due(s, &wait));
    CU_ASSERT_EQUAL(hs_push_sink_settle(s, &ok), HS_PUSH_SENT);
    p = hs_push_sink_due(s, &wait);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->seq, 2);
    hs_push_outcome bad = answer(400);
    CU_ASSERT_EQUAL(hs_push_sink_settle(s, &bad), HS_PUSH_REJECTED);
    hs_push_counters k = hs_push_sink_counters(s);
    CU_ASSERT_EQUAL(k.added, 2);
    CU_ASSERT_EQUAL(k.sent, 1);
    CU_ASSERT_EQUAL(k.retried, 2);
    CU_ASSERT_EQUAL(k.rejected, 1);
    CU_ASSERT_EQUAL(k.queued, 0);
    CU_ASSERT_EQUAL(k.queued_bytes, 0);
    CU_ASSERT_STRING_EQUAL(k.last_error, "HTTP 400");
    hs_push_sink_destroy(s);
}

static void test_retry_after_capped(void) {
    fake_clock c = {.now = 0, .random = 0};
    hs_push_clock clock = {fake_now, fake_random, &c};
    hs_push_sink *s = hs_push_sink_create(&POLICY, &clock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int64_t wait;
    hs_push_sink_add(s, bytes(1), 1, 1, 2);
    CU_ASSERT_PTR_NOT_NULL(hs_push_sink_due(s, &wait));
    hs_push_outcome busy = answer(503);
    busy.retry_after_ms = 86400000;
    hs_push_sink_settle(s, &busy);
    hs_push_sink_due(s, &wait);
    CU_ASSERT_EQUAL(wait, 60000);
    hs_push_sink_destroy(s);
}

static void test_bounds_drop_oldest(void) {
    fake_clock c = {.now = 0, .random = 0};
    hs_push_clock clock = {fake_now, fake_random, &c};
    hs_push_sink *s = hs_push_sink_create(&POLICY, &clock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (int i = 0; i < 6; i++) hs_push_sink_add(s, bytes(100), 100, i, i + 1); /* count 4 */
    hs_push_counters k = hs_push_sink_counters(s);
    CU_ASSERT_EQUAL(k.queued, 4);
    CU_ASSERT_EQUAL(k.dropped_full, 2);
    int64_t wait;
    CU_ASSERT_EQUAL(hs_push_sink_due(s, &wait)->from, 2); /* the oldest went first */
    hs_push_sink_add(s, bytes(800), 800, 6, 7); /* bytes: 400 + 800 > 1000: two more go */
    k = hs_push_sink_counters(s);
    CU_ASSERT_EQUAL(k.dropped_full, 4);
    CU_ASSERT_EQUAL(k.queued, 3);
    CU_ASSERT_EQUAL(k.queued_bytes, 1000);
    CU_ASSERT_EQUAL(hs_push_sink_due(s, &wait)->from, 4);
    hs_push_sink_add(s, bytes(1001), 1001, 7, 8); /* alone over the bound: itself dropped */
    k = hs_push_sink_counters(s);
    CU_ASSERT_EQUAL(k.dropped_full, 5);
    CU_ASSERT_EQUAL(k.queued, 3);
    CU_ASSERT_EQUAL(hs_push_sink_abandon(s), 3);
    k = hs_push_sink_counters(s);
    CU_ASSERT_EQUAL(k.dropped_exit, 3);
    CU_ASSERT_EQUAL(k.added, 8);
    CU_ASSERT_EQUAL(k.peak_queued, 4);
    CU_ASSERT_EQUAL(k.peak_bytes, 1000);
    hs_push_sink_destroy(s);
}

static void test_expired(void) {
    fake_clock c = {.now = 0, .random = 0};
    hs_push_clock clock = {fake_now, fake_random, &c};
    hs_push_sink *s = hs_push_sink_create(&POLICY, &clock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    hs_push_sink_add(s, bytes(1), 1, 1, 2);
    c.now = 3000000;
    hs_push_sink_add(s, bytes(1), 1, 2, 3);
    c.now = 3600001;
    int64_t wait;
    const hs_push_profile *p = hs_push_sink_due(s, &wait);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->from, 2);
    CU_ASSERT_EQUAL(hs_push_sink_counters(s).dropped_expired, 1);
    hs_push_sink_destroy(s);
}

/* --- the wire format ------------------------------------------------------------------------- */

static int url_ok(const char *url) {
    char why[128];
    return hs_pyroscope_check_url(url, why, sizeof why);
}

static void test_urls(void) {
    CU_ASSERT_EQUAL(url_ok("http://127.0.0.1:4040"), 0);
    CU_ASSERT_EQUAL(url_ok("https://profiles-prod-001.grafana.net"), 0);
    CU_ASSERT_EQUAL(url_ok("http://[::1]:4040/prefix/"), 0);
    CU_ASSERT_EQUAL(url_ok("http://host/"), 0);
    const char *bad[] = {"ftp://host", "127.0.0.1:4040", "http://", "http://:80", "http://h:0",
                         "http://h:99999", "http://h:80x", "http://u:p@h", "http://h/?q=1",
                         "http://h/#f", "http://h/a b", "https://[::1", "file:///etc/passwd"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CU_ASSERT_EQUAL(url_ok(bad[i]), -1);
    char why[128];
    hs_pyroscope_check_url("ftp://x", why, sizeof why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "unknown scheme"));
    hs_pyroscope_check_url("http://user:pw@h", why, sizeof why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "push_auth"));
    CU_ASSERT_PTR_NULL(strstr(why, "pw"));
}

static int labels_ok(const char *labels) {
    char why[128];
    return hs_pyroscope_check_labels(labels, why, sizeof why);
}

static void test_labels(void) {
    CU_ASSERT_EQUAL(labels_ok("env=prod"), 0);
    CU_ASSERT_EQUAL(labels_ok("env=prod;region=eu-west-1;_x=1.2"), 0);
    const char *bad[] = {"env", "=x", "env=", "1env=x", "en-v=x", "__name__=x", "env=a b",
                         "env=a,b", "env=x;env=y", "service_name=x", "env=x;", "env={x}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CU_ASSERT_EQUAL(labels_ok(bad[i]), -1);
    char many[512] = "";
    for (int i = 0; i < 30; i++) sprintf(many + strlen(many), "%sl%d=v", i ? ";" : "", i);
    CU_ASSERT_EQUAL(labels_ok(many), -1);
    char why[128];
    CU_ASSERT_EQUAL(hs_pyroscope_check_service("shop", why, sizeof why), 0);
    CU_ASSERT_EQUAL(hs_pyroscope_check_service("com.example.Main", why, sizeof why), 0);
    CU_ASSERT_EQUAL(hs_pyroscope_check_service("a{b}", why, sizeof why), -1);
    CU_ASSERT_EQUAL(hs_pyroscope_check_service("a b", why, sizeof why), -1);
    CU_ASSERT_EQUAL(hs_pyroscope_check_tenant("acme-1", why, sizeof why), 0);
    CU_ASSERT_EQUAL(hs_pyroscope_check_tenant("a\r\nX: y", why, sizeof why), -1);
}

static void test_ingest_url(void) {
    char url[512];
    /* the window's nanoseconds, 19 digits (Pyroscope's attime reads them as nanoseconds) */
    size_t n = hs_pyroscope_ingest_url("http://127.0.0.1:4040/", "shop", "env=test;region=eu",
                                       1700000000123456789LL, 1700000015000000001LL, url,
                                       sizeof url);
    CU_ASSERT_STRING_EQUAL(url, "http://127.0.0.1:4040/ingest?name=shop%7Benv%3Dtest%2Cregion%3Deu%7D"
                                "&from=1700000000123456789&until=1700000015000000001&format=pprof");
    CU_ASSERT_EQUAL(n, strlen(url));
    hs_pyroscope_ingest_url("https://h/p", "a.b$C", "", 1, 2, url, sizeof url);
    CU_ASSERT_STRING_EQUAL(url, "https://h/p/ingest?name=a.b%24C%7B%7D&from=1&until=2&format=pprof");
    char small[16];
    n = hs_pyroscope_ingest_url("http://h", "s", "", 1, 2, small, sizeof small);
    CU_ASSERT(n > sizeof small);
    CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
}

static void test_auth_header(void) {
    char h[256], why[128];
    size_t n = hs_pyroscope_auth_header("123456:glc_abc\n", 15, h, sizeof h, why, sizeof why);
    CU_ASSERT_STRING_EQUAL(h, "Authorization: Basic MTIzNDU2OmdsY19hYmM=");
    CU_ASSERT_EQUAL(n, strlen(h));
    hs_pyroscope_auth_header("  tok.en-1  \r\n", 14, h, sizeof h, why, sizeof why);
    CU_ASSERT_STRING_EQUAL(h, "Authorization: Bearer tok.en-1");
    CU_ASSERT_EQUAL(hs_pyroscope_auth_header("\n\n", 2, h, sizeof h, why, sizeof why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "empty"));
    CU_ASSERT_EQUAL(hs_pyroscope_auth_header("secret1\nsecret2", 15, h, sizeof h, why, sizeof why), 0);
    CU_ASSERT_PTR_NULL(strstr(why, "secret"));
    char tiny[24];
    CU_ASSERT_EQUAL(hs_pyroscope_auth_header("a-rather-long-token", 19, tiny, sizeof tiny, why, sizeof why), 0);
}

static void test_echoed_credentials_redacted(void) {
    const char *headers[] = {"Content-Type: application/octet-stream",
                             "Authorization: Basic MTIzNDU2OmdsY19hYmM="};
    char text[] = "HTTP 401: bad Authorization: Basic MTIzNDU2OmdsY19hYmM= (twice: "
                  "MTIzNDU2OmdsY19hYmM=)";
    hs_push_redact_credentials(text, headers, 2);
    CU_ASSERT_PTR_NULL(strstr(text, "MTIzNDU2"));
    CU_ASSERT_STRING_EQUAL(text, "HTTP 401: bad Authorization: Basic ******************** "
                                 "(twice: ********************)");
    char other[] = "HTTP 500: application/octet-stream"; /* other headers untouched */
    hs_push_redact_credentials(other, headers, 2);
    CU_ASSERT_STRING_EQUAL(other, "HTTP 500: application/octet-stream");
}

static void test_service_from_command(void) {
    char s[64];
    CU_ASSERT_STRING_EQUAL(hs_pyroscope_service_from_command("com.example.Main --port 80", s, sizeof s),
                           "com.example.Main");
    CU_ASSERT_STRING_EQUAL(hs_pyroscope_service_from_command("/srv/shop-1.2.jar -x", s, sizeof s), "shop-1.2");
    CU_ASSERT_STRING_EQUAL(hs_pyroscope_service_from_command("app.jar", s, sizeof s), "app");
    CU_ASSERT_STRING_EQUAL(hs_pyroscope_service_from_command("", s, sizeof s), "java");
    CU_ASSERT_STRING_EQUAL(hs_pyroscope_service_from_command(NULL, s, sizeof s), "java");
    CU_ASSERT_STRING_EQUAL(hs_pyroscope_service_from_command("a{b}=c", s, sizeof s), "a_b__c");
}

static void test_retry_after(void) {
    CU_ASSERT_EQUAL(hs_http_retry_after_ms("5", 0), 5000);
    CU_ASSERT_EQUAL(hs_http_retry_after_ms(" 120\r\n", 0), 120000);
    /* Wed, 21 Oct 2015 07:28:00 GMT = 1445412480 */
    CU_ASSERT_EQUAL(hs_http_retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT", 1445412470), 10000);
    CU_ASSERT_EQUAL(hs_http_retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT", 1445412490), 0);
    CU_ASSERT_EQUAL(hs_http_retry_after_ms("soon", 0), -1);
    CU_ASSERT_EQUAL(hs_http_retry_after_ms("-3", 0), -1);
}

static CU_TestInfo sink_tests[] = {
    {"classify outcomes", test_classify},
    {"unanswered twice: dropped", test_unanswered_twice_dropped},
    {"redirect protocols", test_redirect_protocols},
    {"backoff doubles, jitter, cap", test_backoff_doubles_with_jitter_and_cap},
    {"order, retry, Retry-After, refusal", test_order_and_retry},
    {"Retry-After capped", test_retry_after_capped},
    {"bounds drop the oldest", test_bounds_drop_oldest},
    {"expired profiles dropped", test_expired},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo wire_tests[] = {
    {"push= URLs", test_urls},
    {"labels, service, tenant", test_labels},
    {"ingest URL", test_ingest_url},
    {"Authorization header", test_auth_header},
    {"credentials an answer echoes are blanked", test_echoed_credentials_redacted},
    {"service from sun.java.command", test_service_from_command},
    {"Retry-After", test_retry_after},
    CU_TEST_INFO_NULL,
};

void register_tests(void) {
    HS_ADD_SUITE("push_sink", sink_tests);
    HS_ADD_SUITE("pyroscope_ingest", wire_tests);
}
