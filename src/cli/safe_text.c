/* safe_text.c: escaping target bytes for the terminal (see safe_text.h). */
#include "safe_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The length of the well-formed UTF-8 character at s (at most n bytes), and its code point;
 * 0 when s does not start one (stray continuation, overlong form, surrogate, past U+10FFFF,
 * cut short). */
static size_t utf8_char(const unsigned char *s, size_t n, uint32_t *cp) {
    static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (s[0] >= 0xF5 || len == 0 || len > n) return 0;
    uint32_t v = s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min_for_len[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

/* Code points a terminal acts on rather than shows: C1 controls and the bidi controls
 * (LRM, RLM, ALM, the embeddings, overrides and isolates) that reorder what follows. */
static bool acts_on_terminal(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* How many bytes at s (n left) pass as they are; 0 when the first byte must be escaped. */
static size_t safe_run(const unsigned char *s, size_t n, bool keep_newlines) {
    if (s[0] < 0x80) {
        bool control = s[0] < 0x20 || s[0] == 0x7F;
        return !control || s[0] == '\t' || (keep_newlines && s[0] == '\n') ? 1 : 0;
    }
    uint32_t cp;
    size_t len = utf8_char(s, n, &cp);
    return len && !acts_on_terminal(cp) ? len : 0;
}

size_t cli_escape(const char *text, size_t len, bool keep_newlines, char *out, size_t outlen) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)text;
    size_t need = 0, used = 0;
    bool room = outlen > 0;
    for (size_t i = 0; i < len;) {
        size_t n = safe_run(s + i, len - i, keep_newlines);
        char esc[4] = {'\\', 'x', hex[s[i] >> 4], hex[s[i] & 15]};
        const char *piece = n ? text + i : esc;
        size_t piece_len = n ? n : sizeof esc;
        need += piece_len;
        if (room && used + piece_len < outlen) {
            memcpy(out + used, piece, piece_len);
            used += piece_len;
        } else {
            room = false; /* never half a character or half an escape */
        }
        i += n ? n : 1;
    }
    if (outlen > 0) out[used] = '\0';
    return need;
}

char *cli_escape_dup(const char *text, size_t len, bool keep_newlines) {
    size_t need = cli_escape(text, len, keep_newlines, NULL, 0);
    char *out = malloc(need + 1);
    if (out) cli_escape(text, len, keep_newlines, out, need + 1);
    return out;
}

int cli_print_escaped(FILE *f, const char *text) {
    char *safe = cli_escape_dup(text, strlen(text), true);
    if (!safe) return EOF;
    int rc = fputs(safe, f) < 0 ? EOF : 0;
    free(safe);
    return rc;
}
