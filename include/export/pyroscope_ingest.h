/* pyroscope_ingest.h: Grafana Pyroscope's ingest API as a wire format: what the push=,
 * service= and push_labels= options accept, the URL of one profile's POST, and the headers
 * that carry the tenant and the credentials.
 *
 *   POST BASE/ingest?name=SERVICE{k=v,k2=v2}&from=UNIX&until=UNIX&format=pprof
 *   Content-Type: application/octet-stream         (the gzipped pprof is the body)
 *   X-Scope-OrgID: TENANT                          (push_tenant=)
 *   Authorization: Basic base64(user:token)        (push_auth=@FILE holding "user:token")
 *   Authorization: Bearer TOKEN                    (push_auth=@FILE holding a token)
 * Every Pyroscope version accepts it. Pure string work, no I/O: the file is read by the
 * caller. Another wire format (OTLP) would be a module beside this one. */
#ifndef HS_PYROSCOPE_INGEST_H
#define HS_PYROSCOPE_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_PUSH_URL_MAX 1024
#define HS_PUSH_SERVICE_MAX 256
#define HS_PUSH_LABELS_MAX 1024   /* push_labels= text */
#define HS_PUSH_LABEL_COUNT_MAX 29 /* Pyroscope: 30 label names a series, service_name one */
#define HS_PUSH_TENANT_MAX 256
#define HS_PUSH_AUTH_MAX 4096      /* the credentials file */
#define HS_PUSH_HEADER_MAX (HS_PUSH_AUTH_MAX * 2)

/* push=: an http:// or https:// URL with a host, no user:password@ (push_auth= carries
 * credentials), no query or fragment, no spaces or control characters. 0, or -1 with why. */
int hs_pyroscope_check_url(const char *url, char *why, size_t whylen);

/* service=: 1..HS_PUSH_SERVICE_MAX bytes of printable ASCII without {}, =, ", spaces or
 * commas (it goes in name=SERVICE{...}). 0, or -1 with why. */
int hs_pyroscope_check_service(const char *service, char *why, size_t whylen);

/* push_labels=: k=v;k=v: names Prometheus-valid ([a-zA-Z_][a-zA-Z0-9_]*, not starting with
 * "__", not service_name), each once, values non-empty printable ASCII without {}=,;"
 * or spaces, at most HS_PUSH_LABEL_COUNT_MAX labels. 0, or -1 with why. */
int hs_pyroscope_check_labels(const char *labels, char *why, size_t whylen);

/* push_tenant=: printable ASCII without spaces (an HTTP header value). 0, or -1. */
int hs_pyroscope_check_tenant(const char *tenant, char *why, size_t whylen);

/* The default service name from the JVM's sun.java.command ("com.example.Main args",
 * "/srv/app.jar args"): the main class, or the jar's file name without ".jar"; characters
 * service= refuses become '_'; "java" when nothing is left. Returns out. */
const char *hs_pyroscope_service_from_command(const char *command, char *out, size_t len);

/* The URL of one profile: base (trailing '/' dropped) + "/ingest?name=" + the URL-encoded
 * SERVICE{labels with ',' for ';'} + from, until (seconds since the epoch) + format=pprof.
 * Returns the length needed (like snprintf; out always NUL-terminated). */
size_t hs_pyroscope_ingest_url(const char *base, const char *service, const char *labels,
                               int64_t from, int64_t until, char *out, size_t len);

/* The Authorization header line (no CRLF) of a credentials file's text: "user:token" ->
 * Basic, anything else -> Bearer; surrounding whitespace and one trailing newline are
 * ignored. Returns its length, or 0 with why (empty, several lines, control characters,
 * too long): the why never quotes the credentials. */
size_t hs_pyroscope_auth_header(const char *text, size_t text_len, char *out, size_t outlen,
                                char *why, size_t whylen);

#endif
