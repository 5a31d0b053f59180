/* utf8.c: modified UTF-8 -> standard UTF-8 (see utf8.h). */
#include "base/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

static bool is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

/* Decodes one strict UTF-8 character at s: returns its length (1-4) and sets *cp, or 0
 * when s does not start a valid one. Surrogates (ED A0..BF) are decoded too, so the
 * caller can pair them; it must not copy them as they are. */
static size_t decode(const unsigned char *s, uint32_t *cp) {
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF && is_cont(s[1])) {
        *cp = (uint32_t)(c & 0x1F) << 6 | (s[1] & 0x3F);
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF && is_cont(s[1]) && is_cont(s[2])) {
        *cp = (uint32_t)(c & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
        return *cp >= 0x800 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4 && is_cont(s[1]) && is_cont(s[2]) && is_cont(s[3])) {
        *cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
              (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
        return *cp >= 0x10000 && *cp <= 0x10FFFF ? 4 : 0;
    }
    return 0;
}

static bool is_high_surrogate(uint32_t cp) { return cp >= 0xD800 && cp <= 0xDBFF; }
static bool is_low_surrogate(uint32_t cp) { return cp >= 0xDC00 && cp <= 0xDFFF; }

static size_t encode4(uint32_t cp, char *buf) {
    buf[0] = (char)(0xF0 | cp >> 18);
    buf[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    buf[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    buf[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Appends a whole character, or nothing once one does not fit (never half of one). */
static void emit(char *out, size_t outlen, size_t *pos, bool *full, const char *ch, size_t n) {
    if (!*full && *pos + n < outlen)
        memcpy(out + *pos, ch, n);
    else
        *full = true;
    *pos += n;
}

size_t hs_utf8_from_jvm(const char *in, char *out, size_t outlen) {
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    size_t pos = 0, written = 0;
    bool full = outlen == 0;
    while (*s) {
        uint32_t cp = 0, low = 0;
        size_t n = decode(s, &cp);
        char buf[4];
        if (s[0] == 0xC0 && s[1] == 0x80) { /* modified UTF-8's NUL */
            emit(out, outlen, &pos, &full, REPLACEMENT, 3);
            n = 2;
        } else if (n == 3 && is_high_surrogate(cp) && decode(s + 3, &low) == 3 &&
                   is_low_surrogate(low)) {
            uint32_t supplementary = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            emit(out, outlen, &pos, &full, buf, encode4(supplementary, buf));
            n = 6;
        } else if (n == 0 || (n == 3 && (is_high_surrogate(cp) || is_low_surrogate(cp)))) {
            emit(out, outlen, &pos, &full, REPLACEMENT, 3);
            n = n ? n : 1;
        } else {
            emit(out, outlen, &pos, &full, (const char *)s, n);
        }
        if (!full) written = pos;
        s += n;
    }
    if (outlen > 0) out[written] = '\0';
    return pos;
}

char *hs_utf8_dup(const char *in) {
    size_t need = hs_utf8_from_jvm(in, NULL, 0);
    char *copy = malloc(need + 1);
    if (copy) hs_utf8_from_jvm(in, copy, need + 1);
    return copy;
}

bool hs_utf8_valid(const char *str) {
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        uint32_t cp = 0;
        size_t n = decode(s, &cp);
        if (n == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        s += n;
    }
    return true;
}
