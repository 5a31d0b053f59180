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
/* Room for `more` bytes (and a NUL) at data + len, for a writer that then adds what it
 * wrote to len and puts the NUL; NULL (failed set) when it cannot be had. */
char *hs_text_reserve(hs_text *t, size_t more);
/* The text so far ("" when empty). */
const char *hs_text_str(const hs_text *t);
void hs_text_free(hs_text *t);

/* A caller's fixed buffer, appended to like snprintf: `need` counts every byte asked for,
 * what does not fit is cut, and buf stays NUL-terminated (for the status lines and the
 * figures written into a buffer the caller sized). Start as {buf, cap, 0}. */
typedef struct {
    char *buf;
    size_t cap, need;
} hs_bounded;

void hs_bounded_printf(hs_bounded *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "1.5 MiB", "812 B", "3.25 GiB": three significant figures, powers of 1024 (a KiB from
 * 1000 B on, so no figure reads 1000 or more). */
void hs_size_text(double bytes, char *out, size_t len);

#endif
