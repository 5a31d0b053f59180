/* push_transport.h: how a pushed profile travels: one HTTP POST, its outcome.
 *
 * The sink (push_sink.h) decides what to send and when, the wire format
 * (pyroscope_ingest.h) the URL and headers; a transport only carries the bytes. The one
 * transport is libcurl, loaded with dlopen("libcurl.so.4") when push= is given, so the
 * agent has no link-time dependency on it: HTTPS (the CA bundle of $HEAPSAMPLER_CA_BUNDLE
 * when set, else libcurl's), proxies (http_proxy, HTTPS_PROXY, NO_PROXY), redirects (at
 * most 5, POST kept; from an https URL to https only, never down to http; from http to
 * http or https), connect and total timeouts.
 *
 * A 2xx status line ends the attempt: the answer's body is read for at most
 * HS_PUSH_DRAIN_MS and HS_PUSH_DRAIN_BYTES, then the connection is dropped, so a receiver
 * that trickles its body after 200 still counts as having taken the profile. The outcome
 * says whether the whole request went out before an answer failed to come (the receiver
 * may hold it), and marks permanent errors: a redirect loop, a redirect to a scheme
 * refused, a malformed redirect. */
#ifndef HS_PUSH_TRANSPORT_H
#define HS_PUSH_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/push_sink.h"

#define HS_PUSH_DRAIN_MS 1000          /* reading the body of a 2xx answer, at most */
#define HS_PUSH_DRAIN_BYTES (64 * 1024)

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

/* The protocols a redirect from url may go to: "https" from an https URL, else
 * "http,https". */
const char *hs_push_redirect_protocols(const char *url);

/* Blanks (with '*') every copy in text of the credential an "Authorization: SCHEME VALUE"
 * line of headers carries: an ingester's refusal may echo the request's headers, and the
 * text goes to logs and status. Values under 4 bytes are left (nothing to match safely). */
void hs_push_redact_credentials(char *text, const char *const *headers, size_t nheaders);

/* Loads libcurl (dlopen of $HEAPSAMPLER_LIBCURL, default "libcurl.so.4": another build,
 * such as Debian's libcurl-gnutls.so.4, may be named there) and fills t. 0, or -1 with
 * why: libcurl.so.4 is missing (naming the Debian package libcurl4) or lacks a function.
 * Call once, before other threads use libcurl (it runs curl_global_init). */
int hs_curl_transport_open(hs_push_transport *t, char *why, size_t whylen);

#endif
