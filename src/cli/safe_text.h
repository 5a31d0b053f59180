/* safe_text.h: target bytes made safe to print (pure).
 *
 * Everything the command prints that came from the target's side (the agent's answers
 * and error lines, HotSpot's attach responses, /proc/PID/cmdline, file names from
 * /proc/PID/maps, a JDK's release file) passes through cli_escape, so that no control
 * sequence reaches the operator's terminal as itself: C0 controls but tab (ESC starts
 * CSI/OSC sequences, CR rewrites the line), DEL, C1 controls (U+0080-U+009F, which some
 * terminals obey as CSI), bidirectional overrides, and bytes that are not UTF-8 are
 * shown as \xNN, one per byte. Newlines are kept only where the text is many lines. */
#ifndef HS_CLI_SAFE_TEXT_H
#define HS_CLI_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the escaped text into out (NUL-terminated, cut at a whole character when out is
 * short). Returns the length the whole escaped text needs, without its NUL. */
size_t cli_escape(const char *text, size_t len, bool keep_newlines, char *out, size_t outlen);

/* The escaped text, malloc'd; NULL when out of memory. */
char *cli_escape_dup(const char *text, size_t len, bool keep_newlines);

/* Prints text (NUL-terminated) escaped, newlines kept. Returns 0, or EOF on a write error. */
int cli_print_escaped(FILE *f, const char *text);

#endif
