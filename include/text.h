/* text.h: a growable text buffer, for answers and reports built in memory before they are
 * written in one go (the reply file of a command, the `top` report).
 *
 * Appends never fail loudly: an allocation failure sets `failed`, later appends do
 * nothing, and the owner checks `failed` once at the end. data is always NUL-terminated
 * once anything was appended (NULL before). Pure C. */
#ifndef HS_TEXT_H
#define HS_TEXT_H

#include <stddef.h>

typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} hs_text;

void hs_text_append(hs_text *t, const char *s, size_t n);
void hs_text_puts(hs_text *t, const char *s);
void hs_text_printf(hs_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n copies of byte c. */
void hs_text_repeat(hs_text *t, char c, size_t n);
/* The text so far ("" when empty). */
const char *hs_text_str(const hs_text *t);
void hs_text_free(hs_text *t);

#endif
