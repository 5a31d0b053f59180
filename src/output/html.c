/* html.c: the self-contained HTML flame graph encoder (see html.h).
 *
 * The page's markup, style and script live in src/output/flamegraph.html, which the build turns
 * into the byte array hs_flamegraph_template (cmake/embed.cmake). This file only writes
 * the profile as JSON in place of the template's PROFILE_MARKER.
 *
 * The JSON keeps the file small for large profiles (a javac profile at a 4k interval
 * has 600,000 tree nodes): each node is two integers, [distance to its parent, location],
 * where a location is the profile's (function, line) pair, or nlocations + function for
 * a node whose merged frames were at several lines. Parents are usually the node just
 * before. Own values are kept apart, [distance to the previous such node, one value per
 * sample type], for the few nodes that have any (mostly the leaves, the allocated
 * classes); the browser sums the totals. Mean ages are kept apart the same way,
 * [distance to the previous node with an age (the first from the root, which may have
 * one itself), whole seconds], for the nodes that hold in-use bytes with an age
 * (flame_tree.h): without live tracking the list is empty.
 */
#include "output/html.h"
#include "base/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/flame_tree.h"

/* Generated from src/output/flamegraph.html at build time. */
extern const char hs_flamegraph_template[];

#define PROFILE_MARKER "@PROFILE_JSON@"

/* How a function is drawn (the template's colours). */
enum { KIND_CODE = 0, KIND_ALLOCATED_CLASS = 1, KIND_PSEUDO = 2 };

typedef hs_text text_buf;

static void append(text_buf *b, const char *s, size_t n) { hs_text_append(b, s, n); }

static void append_str(text_buf *b, const char *s) { hs_text_puts(b, s); }

static void append_int(text_buf *b, int64_t v) {
    char number[24];
    int n = snprintf(number, sizeof number, "%" PRId64, v);
    append(b, number, (size_t)n);
}

static void append_json_string(text_buf *b, const char *s) {
    if (!s) s = "";
    char *w = hs_text_reserve(b, 6 * strlen(s) + 2);
    if (!w) return;
    b->len += hs_json_string(w, s);
    b->data[b->len] = '\0';
}

/* ---- JSON strings ---------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the bytes there are not
 * one (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or a
 * sequence cut short). */
static size_t utf8_length(const unsigned char *s) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c == 0xe0) n = 3, lo = 0xa0;
    else if (c == 0xed) n = 3, hi = 0x9f; /* no UTF-16 surrogates */
    else if (c >= 0xe1 && c <= 0xef) n = 3;
    else if (c == 0xf0) n = 4, lo = 0x90;
    else if (c == 0xf4) n = 4, hi = 0x8f;
    else if (c >= 0xf1 && c <= 0xf3) n = 4;
    else return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return n;
}

static size_t write_escape(char *w, unsigned code) {
    return (size_t)sprintf(w, "\\u%04x", code);
}

size_t hs_json_string(char *dst, const char *s) {
    const unsigned char *r = (const unsigned char *)s;
    char *w = dst;
    *w++ = '"';
    while (*r) {
        unsigned char c = *r;
        size_t n = utf8_length(r);
        if (n == 0) { /* not UTF-8: one replacement character per bad byte */
            w += write_escape(w, 0xfffd);
            r++;
        } else if (n == 3 && c == 0xe2 && r[1] == 0x80 && (r[2] == 0xa8 || r[2] == 0xa9)) {
            w += write_escape(w, r[2] == 0xa8 ? 0x2028 : 0x2029);
            r += 3;
        } else if (n > 1) {
            memcpy(w, r, n);
            w += n;
            r += n;
        } else {
            if (c == '"' || c == '\\') *w++ = '\\', *w++ = (char)c;
            else if (c == '\n') *w++ = '\\', *w++ = 'n';
            else if (c == '\t') *w++ = '\\', *w++ = 't';
            else if (c < 0x20 || c == '<' || c == '>' || c == '&') w += write_escape(w, c);
            else *w++ = (char)c;
            r++;
        }
    }
    *w++ = '"';
    return (size_t)(w - dst);
}

/* ---- The profile as JSON --------------------------------------------------------------- */

/* Classes are the leaves of stacks with frames; "[...]" names are pseudo-frames. */
static unsigned char *function_kinds(const hs_profile *p) {
    unsigned char *kinds = calloc((size_t)p->nfunctions + 1, 1);
    if (!kinds) return NULL;
    for (uint32_t i = 0; i < p->nsamples; i++) {
        const hs_sample *s = &p->samples[i];
        if (s->depth >= 2) kinds[p->locations[s->locations[0]].function] = KIND_ALLOCATED_CLASS;
    }
    for (uint32_t f = 0; f < p->nfunctions; f++)
        if (p->functions[f].name && p->functions[f].name[0] == '[') kinds[f] = KIND_PSEUDO;
    return kinds;
}

static void append_values(text_buf *b, const int64_t *values, uint32_t n) {
    for (uint32_t v = 0; v < n; v++) {
        if (v > 0) append_str(b, ",");
        append_int(b, values[v]);
    }
}

static void append_header(text_buf *b, const hs_profile *p) {
    append_str(b, "{\"format\":1,\"time_ms\":");
    append_int(b, p->time_nanos / 1000000);
    append_str(b, ",\"duration_ms\":");
    append_int(b, p->duration_nanos / 1000000);
    append_str(b, ",\"samples\":");
    append_int(b, p->nsamples);
    append_str(b, ",\"initial\":");
    append_json_string(b, p->default_sample_type);
    append_str(b, ",\"metrics\":[");
    for (uint32_t v = 0; v < p->nsample_types; v++) {
        append_str(b, v ? ",{\"name\":" : "{\"name\":");
        append_json_string(b, p->sample_types[v].type);
        append_str(b, ",\"unit\":");
        append_json_string(b, p->sample_types[v].unit);
        append_str(b, "}");
    }
    append_str(b, "],\"comments\":[");
    for (uint32_t i = 0; i < p->ncomments; i++) {
        if (i > 0) append_str(b, ",");
        append_json_string(b, p->comments[i]);
    }
    append_str(b, "]");
}

static void append_functions(text_buf *b, const hs_profile *p, const unsigned char *kinds) {
    static const char *const fields[] = {",\"names\":[", "],\"files\":["};
    for (int field = 0; field < 2; field++) {
        append_str(b, fields[field]);
        for (uint32_t f = 0; f < p->nfunctions; f++) {
            if (f > 0) append_str(b, ",");
            append_json_string(b, field == 0 ? p->functions[f].name : p->functions[f].filename);
        }
    }
    append_str(b, "],\"kinds\":[");
    for (uint32_t f = 0; f < p->nfunctions; f++) {
        if (f > 0) append_str(b, ",");
        append_int(b, kinds[f]);
    }
    append_str(b, "]");
}

static void append_locations(text_buf *b, const hs_profile *p) {
    append_str(b, ",\"locations\":[");
    for (uint32_t i = 0; i < p->nlocations; i++) {
        if (i > 0) append_str(b, ",");
        append_int(b, p->locations[i].function);
        append_str(b, ",");
        append_int(b, p->locations[i].line);
    }
    append_str(b, "]");
}

static int has_values(const hs_flame_node *node, uint32_t nvalues) {
    for (uint32_t v = 0; v < nvalues; v++)
        if (node->self[v] != 0) return 1;
    return 0;
}

static void append_ages(text_buf *b, const hs_flame_tree *t) {
    append_str(b, "],\"ages\":[");
    uint32_t previous = 0, size = hs_flame_tree_size(t);
    int first = 1;
    for (uint32_t n = 0; n < size; n++) {
        const hs_flame_node *node = hs_flame_tree_node(t, n);
        if (node->aged_bytes <= 0) continue;
        if (!first) append_str(b, ",");
        append_int(b, (int64_t)(n - previous));
        append_str(b, ",");
        append_int(b, (int64_t)(node->age_seconds + 0.5));
        previous = n;
        first = 0;
    }
}

static void append_tree(text_buf *b, const hs_profile *p, const hs_flame_tree *t) {
    uint32_t nvalues = p->nsample_types, size = hs_flame_tree_size(t);
    append_str(b, ",\"root\":[");
    append_values(b, hs_flame_tree_node(t, HS_FLAME_ROOT)->self, nvalues);
    append_str(b, "],\"nodes\":[");
    for (uint32_t n = 1; n < size; n++) {
        const hs_flame_node *node = hs_flame_tree_node(t, n);
        if (n > 1) append_str(b, ",");
        append_int(b, (int64_t)(n - node->parent));
        append_str(b, ",");
        append_int(b, node->line == HS_FLAME_SEVERAL_LINES ? (int64_t)p->nlocations + node->function
                                                            : (int64_t)node->location);
    }
    append_str(b, "],\"values\":[");
    uint32_t previous = 0;
    for (uint32_t n = 1; n < size; n++) {
        const hs_flame_node *node = hs_flame_tree_node(t, n);
        if (!has_values(node, nvalues)) continue;
        if (previous > 0) append_str(b, ",");
        append_int(b, (int64_t)(n - previous));
        append_str(b, ",");
        append_values(b, node->self, nvalues);
        previous = n;
    }
    append_ages(b, t);
    append_str(b, "]}");
}

int hs_html_encode(const hs_profile *p, char **out, size_t *outlen) {
    *out = NULL;
    *outlen = 0;
    const char *marker = strstr(hs_flamegraph_template, PROFILE_MARKER);
    hs_flame_tree *tree = hs_flame_tree_build(p);
    unsigned char *kinds = tree ? function_kinds(p) : NULL;
    if (!marker || !kinds) {
        hs_flame_tree_free(tree);
        errno = marker ? ENOMEM : EINVAL;
        return -1;
    }
    text_buf b = {0};
    append(&b, hs_flamegraph_template, (size_t)(marker - hs_flamegraph_template));
    append_header(&b, p);
    append_functions(&b, p, kinds);
    append_locations(&b, p);
    append_tree(&b, p, tree);
    append_str(&b, marker + strlen(PROFILE_MARKER));
    hs_flame_tree_free(tree);
    free(kinds);
    if (b.failed) {
        free(b.data);
        errno = ENOMEM;
        return -1;
    }
    *out = b.data;
    *outlen = b.len;
    return 0;
}
