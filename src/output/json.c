/* json.c: JSON strings and a small writer (see json.h). */
#include "output/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* ---- The writer ------------------------------------------------------------------------ */

void hs_json_begin(hs_json *w, hs_text *out) {
    memset(w, 0, sizeof *w);
    w->out = out;
}

/* The comma and the key before a member. */
static void member(hs_json *w, const char *key) {
    if (w->has_member[w->depth]) hs_text_puts(w->out, ",");
    w->has_member[w->depth] = true;
    if (!key) return;
    char *dst = hs_text_reserve(w->out, 6 * strlen(key) + 3);
    if (!dst) return;
    w->out->len += hs_json_string(dst, key);
    w->out->data[w->out->len++] = ':';
    w->out->data[w->out->len] = '\0';
}

static void open_nested(hs_json *w, const char *key, const char *bracket) {
    member(w, key);
    if (w->depth + 1 >= HS_JSON_MAX_DEPTH) {
        w->out->failed = 1;
        return;
    }
    hs_text_puts(w->out, bracket);
    w->has_member[++w->depth] = false;
    w->closer[w->depth] = bracket[0];
}

void hs_json_object(hs_json *w, const char *key) { open_nested(w, key, "{"); }

void hs_json_array(hs_json *w, const char *key) { open_nested(w, key, "["); }

void hs_json_end(hs_json *w) {
    if (w->depth == 0) {
        w->out->failed = 1;
        return;
    }
    hs_text_puts(w->out, w->closer[w->depth--] == '[' ? "]" : "}");
}

void hs_json_str(hs_json *w, const char *key, const char *value) {
    member(w, key);
    if (!value) {
        hs_text_puts(w->out, "null");
        return;
    }
    char *dst = hs_text_reserve(w->out, 6 * strlen(value) + 2);
    if (!dst) return;
    w->out->len += hs_json_string(dst, value);
    w->out->data[w->out->len] = '\0';
}

void hs_json_num(hs_json *w, const char *key, double value) {
    member(w, key);
    if (!isfinite(value)) hs_text_puts(w->out, "null");
    else if (value == floor(value) && fabs(value) < 9e15) hs_text_printf(w->out, "%.0f", value);
    else hs_text_printf(w->out, "%.15g", value); /* 15 digits: what a double holds exactly */
}

void hs_json_int(hs_json *w, const char *key, int64_t value) {
    member(w, key);
    hs_text_printf(w->out, "%" PRId64, value);
}

void hs_json_bool(hs_json *w, const char *key, bool value) {
    member(w, key);
    hs_text_puts(w->out, value ? "true" : "false");
}

void hs_json_null(hs_json *w, const char *key) {
    member(w, key);
    hs_text_puts(w->out, "null");
}
