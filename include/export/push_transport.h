/* push_transport.h: how a pushed profile travels: one HTTP POST, its outcome.
 *
 * The sink (push_sink.h) decides what to send and when, the wire format
 * (pyroscope_ingest.h) the URL and headers; a transport only carries the bytes. The one
 * transport is libcurl, loaded with dlopen("libcurl.so.4") when push= is given, so the
 * agent has no link-time dependency on it: HTTPS, proxies (http_proxy, HTTPS_PROXY,
 * NO_PROXY), redirects (at most 5, http and https only, POST kept), connect and total
 * timeouts. */
#ifndef HS_PUSH_TRANSPORT_H
#define HS_PUSH_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/push_sink.h"

typedef struct {
    const char *url;
    const char *const *headers; /* "Name: value" lines, no CRLF */
    size_t nheaders;
    const uint8_t *body;
    size_t len;
    int64_t connect_timeout_ms, timeout_ms;
    /* Polled while the request runs (about every second, or sooner): true gives up at
     * once (the outcome then has no answer and timed_out set). May be NULL. */
    bool (*abort)(void *ctx);
    void *abort_ctx;
} hs_push_request;

typedef struct {
    void *ctx;
    /* Sends one request; fills out (status 0 when no answer came). Never blocks longer
     * than the request's timeouts. */
    void (*send)(void *ctx, const hs_push_request *req, hs_push_outcome *out);
    void (*close)(void *ctx);
} hs_push_transport;

/* Loads libcurl (dlopen of $HEAPSAMPLER_LIBCURL, default "libcurl.so.4": another build,
 * such as Debian's libcurl-gnutls.so.4, may be named there) and fills t. 0, or -1 with why: libcurl.so.4 is missing (naming
 * the Debian package libcurl4) or lacks a function. Call once, before other threads use
 * libcurl (it runs curl_global_init). */
int hs_curl_transport_open(hs_push_transport *t, char *why, size_t whylen);

#endif
