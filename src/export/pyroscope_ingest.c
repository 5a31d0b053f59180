/* pyroscope_ingest.c: Pyroscope's ingest URL, labels and headers (see pyroscope_ingest.h). */
#include "export/pyroscope_ingest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *why, size_t whylen, const char *text) {
    snprintf(why, whylen, "%s", text);
    return -1;
}

/* The same for the functions that return a length: 0. */
static size_t refuse(char *why, size_t whylen, const char *text) {
    fail(why, whylen, text);
    return 0;
}

/* Printable ASCII (no space) and none of the bytes in `refused`. */
static bool plain(const char *s, size_t n, const char *refused) {
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] >= 0x7f || strchr(refused, s[i])) return false;
    return true;
}

/* --- options --------------------------------------------------------------------------------- */

int hs_pyroscope_check_url(const char *url, char *why, size_t whylen) {
    size_t scheme = strncmp(url, "http://", 7) == 0 ? 7 : strncmp(url, "https://", 8) == 0 ? 8 : 0;
    if (scheme == 0)
        return fail(why, whylen, strstr(url, "://") ? "unknown scheme (http:// or https:// only)"
                                                    : "not a URL (http://HOST[:PORT][/PATH])");
    if (strlen(url) >= HS_PUSH_URL_MAX) return fail(why, whylen, "URL too long");
    if (!plain(url, strlen(url), "\"<>\\^`{|}"))
        return fail(why, whylen, "spaces, quotes or control characters in the URL");
    const char *host = url + scheme;
    size_t authority = strcspn(host, "/?#");
    if (authority == 0 || host[0] == ':') return fail(why, whylen, "no host");
    if (memchr(host, '@', authority))
        return fail(why, whylen, "credentials in the URL (give them with push_auth=@FILE)");
    if (strpbrk(host, "?#")) return fail(why, whylen, "a query or fragment (give the base URL)");
    const char *colon = NULL;
    const char *bracket = host[0] == '[' ? memchr(host, ']', authority) : NULL;
    if (host[0] == '[' && !bracket) return fail(why, whylen, "unclosed '[' in the host");
    colon = memchr(bracket ? bracket : host, ':', authority - (size_t)((bracket ? bracket : host) - host));
    if (colon) {
        size_t digits = authority - (size_t)(colon + 1 - host);
        long port = digits && digits <= 5 && strspn(colon + 1, "0123456789") == digits
                        ? strtol(colon + 1, NULL, 10) : -1;
        if (port < 1 || port > 65535) return fail(why, whylen, "bad port (1 to 65535)");
    }
    return 0;
}

int hs_pyroscope_check_service(const char *service, char *why, size_t whylen) {
    size_t n = strlen(service);
    if (n == 0) return fail(why, whylen, "empty name");
    if (n > HS_PUSH_SERVICE_MAX) return fail(why, whylen, "name too long (at most 256 bytes)");
    if (!plain(service, n, "{}=,\";"))
        return fail(why, whylen, "printable ASCII without spaces, {, }, =, \", ',' or ';'");
    return 0;
}

static bool label_name_ok(const char *name, size_t n) {
    if (n == 0 || !(isalpha((unsigned char)name[0]) || name[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)name[i]) || name[i] == '_')) return false;
    return true;
}

/* One "k=v" of push_labels=; names[] collects the names seen (for duplicates). */
static int check_label(const char *item, size_t n, const char **names, size_t *nnames,
                       size_t *lens, char *why, size_t whylen) {
    const char *eq = memchr(item, '=', n);
    if (!eq) return fail(why, whylen, "a label is not k=v (labels are separated by ';')");
    size_t key = (size_t)(eq - item), value = n - key - 1;
    if (!label_name_ok(item, key))
        return fail(why, whylen, "a label name is not [a-zA-Z_][a-zA-Z0-9_]*");
    if (key >= 2 && item[0] == '_' && item[1] == '_')
        return fail(why, whylen, "label names starting with __ are reserved");
    if (key == 12 && memcmp(item, "service_name", 12) == 0)
        return fail(why, whylen, "service_name is set by service=");
    if (value == 0 || !plain(eq + 1, value, "{}=,;\""))
        return fail(why, whylen, "a label value is empty or has spaces, {, }, =, ',' or \"");
    for (size_t i = 0; i < *nnames; i++)
        if (lens[i] == key && memcmp(names[i], item, key) == 0)
            return fail(why, whylen, "a label name is given twice");
    if (*nnames == HS_PUSH_LABEL_COUNT_MAX) return fail(why, whylen, "more than 29 labels");
    names[*nnames] = item;
    lens[(*nnames)++] = key;
    return 0;
}

int hs_pyroscope_check_labels(const char *labels, char *why, size_t whylen) {
    const char *names[HS_PUSH_LABEL_COUNT_MAX];
    size_t lens[HS_PUSH_LABEL_COUNT_MAX], nnames = 0;
    if (strlen(labels) >= HS_PUSH_LABELS_MAX) return fail(why, whylen, "too long");
    for (const char *item = labels;;) {
        size_t n = strcspn(item, ";");
        if (check_label(item, n, names, &nnames, lens, why, whylen) != 0) return -1;
        if (item[n] == '\0') return 0;
        item += n + 1;
    }
}

int hs_pyroscope_check_tenant(const char *tenant, char *why, size_t whylen) {
    size_t n = strlen(tenant);
    if (n == 0 || n > HS_PUSH_TENANT_MAX || !plain(tenant, n, ""))
        return fail(why, whylen, "1 to 256 printable ASCII characters without spaces");
    return 0;
}

const char *hs_pyroscope_service_from_command(const char *command, char *out, size_t len) {
    size_t n = command ? strcspn(command, " ") : 0;
    const char *name = command;
    const char *slash = n ? memrchr(command, '/', n) : NULL;
    if (n > 4 && memcmp(command + n - 4, ".jar", 4) == 0) {
        if (slash) name = slash + 1;
        n = (size_t)(command + n - 4 - name);
    }
    if (n >= len) n = len - 1;
    if (n > HS_PUSH_SERVICE_MAX) n = HS_PUSH_SERVICE_MAX;
    for (size_t i = 0; i < n; i++)
        out[i] = plain(name + i, 1, "{}=,\";") ? name[i] : '_';
    out[n] = '\0';
    if (n == 0) snprintf(out, len, "java");
    return out;
}

/* --- the request ----------------------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t cap, need;
} bounded;

static void put(bounded *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++, b->need++)
        if (b->need + 1 < b->cap) b->buf[b->need] = s[i];
    if (b->cap) b->buf[b->need + 1 < b->cap ? b->need : b->cap - 1] = '\0';
}

/* Percent-encodes every byte but unreserved ones (RFC 3986). */
static void put_encoded(bounded *b, const char *s) {
    static const char hex[] = "0123456789ABCDEF";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || strchr("-._~", c)) {
            put(b, (const char *)&c, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            put(b, e, 3);
        }
    }
}

size_t hs_pyroscope_ingest_url(const char *base, const char *service, const char *labels,
                               int64_t from, int64_t until, char *out, size_t len) {
    bounded b = {out, len, 0};
    if (len) out[0] = '\0';
    size_t n = strlen(base);
    while (n > 0 && base[n - 1] == '/') n--;
    put(&b, base, n);
    put(&b, "/ingest?name=", 13);
    put_encoded(&b, service);
    char set[HS_PUSH_LABELS_MAX + 2];
    snprintf(set, sizeof set, "{%s}", labels ? labels : "");
    for (char *c = set; *c; c++)
        if (*c == ';') *c = ',';
    put_encoded(&b, set);
    char times[96];
    int t = snprintf(times, sizeof times, "&from=%lld&until=%lld&format=pprof", (long long)from,
                     (long long)until);
    put(&b, times, (size_t)t);
    return b.need;
}

static size_t base64(const unsigned char *in, size_t n, char *out, size_t outlen) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t need = (n + 2) / 3 * 4;
    if (need + 1 > outlen) return 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? digits[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

size_t hs_pyroscope_auth_header(const char *text, size_t n, char *out, size_t outlen, char *why,
                                size_t whylen) {
    while (n > 0 && isspace((unsigned char)text[n - 1])) n--;
    while (n > 0 && isspace((unsigned char)*text)) {
        text++;
        n--;
    }
    if (n == 0) return refuse(why, whylen, "the file is empty");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)text[i] < ' ' || text[i] == 0x7f)
            return refuse(why, whylen, "the file has more than one line or control characters");
    bool basic = memchr(text, ':', n) != NULL;
    int head = snprintf(out, outlen, "Authorization: %s ", basic ? "Basic" : "Bearer");
    size_t body = 0;
    if (head > 0 && (size_t)head < outlen) {
        if (basic) {
            body = base64((const unsigned char *)text, n, out + head, outlen - (size_t)head);
        } else if (n + 1 <= outlen - (size_t)head) {
            memcpy(out + head, text, n);
            out[head + (int)n] = '\0';
            body = n;
        }
    }
    if (body == 0) return refuse(why, whylen, "the credentials are too long");
    return (size_t)head + body;
}
