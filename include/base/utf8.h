/* utf8.h: the JVM's modified UTF-8 -> standard UTF-8, for every string a profile carries.
 *
 * JVMTI returns names in modified UTF-8: a supplementary character (an emoji, a CJK
 * Extension B letter) is a surrogate pair, each half encoded as 3 bytes, and NUL is the
 * two bytes C0 80. Readers of pprof (go tool pprof, Grafana Pyroscope) need standard
 * UTF-8 and reject or garble anything else. Pure string work, no JVM. */
#ifndef HS_UTF8_H
#define HS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Converts the NUL-terminated `in` into `out`: a surrogate pair becomes one 4-byte
 * character; C0 80 (an embedded NUL), a lone surrogate and every byte that does not
 * start a valid character become U+FFFD. Valid UTF-8 is copied unchanged, so the
 * conversion may be applied twice. `out` is always NUL-terminated and never cut inside a
 * character; returns the length the whole result needs (like snprintf). */
size_t hs_utf8_from_jvm(const char *in, char *out, size_t outlen);

/* A malloc'd converted copy of `in` (NULL is taken as ""); NULL on ENOMEM. */
char *hs_utf8_dup(const char *in);

/* Whether the NUL-terminated `s` is strict UTF-8 (no overlong forms, no surrogates,
 * nothing above U+10FFFF). */
bool hs_utf8_valid(const char *s);

#endif
