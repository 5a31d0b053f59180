/* text.c: a growable text buffer (see text.h). */
#include "base/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *hs_text_reserve(hs_text *t, size_t more) {
    if (t->failed) return NULL;
    if (more > SIZE_MAX / 4 - t->len) {
        t->failed = 1;
        return NULL;
    }
    if (t->len + more + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + more + 1) cap *= 2;
        char *data = realloc(t->data, cap);
        if (!data) {
            t->failed = 1;
            return NULL;
        }
        t->data = data;
        t->cap = cap;
    }
    return t->data + t->len;
}

void hs_text_append(hs_text *t, const char *s, size_t n) {
    char *w = hs_text_reserve(t, n);
    if (!w) return;
    memcpy(w, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void hs_text_puts(hs_text *t, const char *s) { hs_text_append(t, s, strlen(s)); }

void hs_text_repeat(hs_text *t, char c, size_t n) {
    char *w = hs_text_reserve(t, n);
    if (!w) return;
    memset(w, c, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void hs_text_printf(hs_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *w = n < 0 ? NULL : hs_text_reserve(t, (size_t)n);
    if (!w) {
        if (n < 0) t->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(w, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

const char *hs_text_str(const hs_text *t) { return t->data ? t->data : ""; }

void hs_text_free(hs_text *t) {
    free(t->data);
    t->data = NULL;
    t->len = t->cap = 0;
    t->failed = 0;
}

void hs_bounded_printf(hs_bounded *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->need < b->cap ? b->cap - b->need : 0;
    int n = vsnprintf(room ? b->buf + b->need : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) b->need += (size_t)n;
}

void hs_size_text(double bytes, char *out, size_t len) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = fabs(bytes);
    unsigned u = 0;
    while (v >= 1000 && u + 1 < sizeof units / sizeof units[0]) { /* 1000 KiB reads as 0.98 MiB */
        v /= 1024;
        u++;
    }
    const char *sign = bytes < 0 ? "-" : "";
    if (u == 0) snprintf(out, len, "%s%.0f B", sign, v);
    else snprintf(out, len, v < 10 ? "%s%.2f %s" : v < 100 ? "%s%.1f %s" : "%s%.0f %s", sign, v,
                  units[u]);
}
