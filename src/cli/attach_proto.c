/* attach_proto.c: building attach requests, parsing responses and reply files (see
 * attach_proto.h). */
#include "attach_proto.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t cli_attach_load_request(char *buf, size_t len, const char *library, const char *options) {
    const char *parts[] = {"1", "load", library, "true", options};
    size_t used = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        size_t n = strlen(parts[i]);
        if (n >= CLI_ATTACH_ARG_MAX || used + n + 1 > len) return 0;
        memcpy(buf + used, parts[i], n + 1); /* with its NUL */
        used += n + 1;
    }
    return used;
}

/* Parses an optionally signed decimal number spanning [p, end). */
static int parse_int(const char *p, const char *end, int *out) {
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\r' || end[-1] == '\t')) end--;
    if (p == end) return -1;
    const char *q = p;
    if (*q == '-' || *q == '+') q++;
    if (q == end) return -1;
    for (const char *c = q; c < end; c++)
        if (*c < '0' || *c > '9') return -1;
    errno = 0;
    long v = strtol(p, NULL, 10);
    if (errno || v < INT_MIN || v > INT_MAX) return -1;
    *out = (int)v;
    return 0;
}

static const char *line_end(const char *p) {
    const char *nl = strchr(p, '\n');
    return nl ? nl : p + strlen(p);
}

static const char *next_line(const char *end) { return *end == '\n' ? end + 1 : end; }

int cli_attach_parse_response(const char *buf, size_t len, cli_attach_response *out) {
    (void)len;
    memset(out, 0, sizeof *out);
    const char *end = line_end(buf);
    if (parse_int(buf, end, &out->op_rc) != 0) return -1;
    out->text = next_line(end);
    if (out->op_rc != 0) return 0;
    /* The op ran: its first line is the agent's return code (bare or "return code: N"). */
    const char *p = out->text;
    const char *e = line_end(p);
    static const char prefix[] = "return code:";
    if ((size_t)(e - p) >= sizeof prefix - 1 && strncmp(p, prefix, sizeof prefix - 1) == 0)
        p += sizeof prefix - 1;
    if (parse_int(p, e, &out->agent_rc) == 0) {
        out->has_agent_rc = true;
        out->text = next_line(e);
    }
    return 0;
}

int cli_reply_parse(const char *buf, size_t len, cli_reply *out) {
    (void)len;
    memset(out, 0, sizeof *out);
    static const char magic[] = "heapsampler-reply 1 ";
    if (strncmp(buf, magic, sizeof magic - 1) != 0) return -1;
    const char *end = line_end(buf);
    const char *p = buf + sizeof magic - 1;
    bool have_version = false, have_rc = false;
    while (p < end) {
        const char *word_end = p;
        while (word_end < end && *word_end != ' ') word_end++;
        size_t n = (size_t)(word_end - p);
        if (n > 8 && strncmp(p, "version=", 8) == 0 && n - 8 < sizeof out->version) {
            memcpy(out->version, p + 8, n - 8);
            out->version[n - 8] = '\0';
            have_version = true;
        } else if (n > 3 && strncmp(p, "rc=", 3) == 0) {
            if (parse_int(p + 3, word_end, &out->rc) != 0) return -1;
            have_rc = true;
        } /* other words: fields a later agent adds */
        p = word_end;
        while (p < end && *p == ' ') p++;
    }
    if (!have_version || !have_rc) return -1;
    out->body = next_line(end);
    return 0;
}

bool cli_text_field(const char *text, const char *key, char *out, size_t len) {
    size_t key_len = strlen(key);
    for (const char *p = text; *p;) {
        const char *e = line_end(p);
        if ((size_t)(e - p) > key_len && strncmp(p, key, key_len) == 0 && p[key_len] == ':') {
            const char *v = p + key_len + 1;
            while (v < e && *v == ' ') v++;
            snprintf(out, len, "%.*s", (int)(e - v), v);
            return true;
        }
        p = next_line(e);
    }
    return false;
}
