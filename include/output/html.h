/* html.h: a profile as one self-contained HTML file: an interactive flame graph (icicle)
 * that opens in a browser from a local file, with no network access and no external
 * script, style or font.
 *
 * The page is the template src/output/flamegraph.html (embedded at build time) with the profile
 * inserted as JSON: the call tree merged by function (flame_tree.h) with each node's
 * own values for every sample type, the function names and files, and the comments. */
#ifndef HS_HTML_H
#define HS_HTML_H

#include <stddef.h>

#include "profile/profile.h"

/* Writes the page as a malloc'd NUL-terminated text to *out. 0, or -1 with errno set
 * (ENOMEM, or for a failed profile). */
int hs_html_encode(const hs_profile *p, char **out, size_t *outlen);

/* Appends s to the JSON text being built as a JSON string literal (quotes included) that
 * is also safe inside an HTML <script> element: '<', '>' and '&' are written as \u escapes
 * (no "</script>" or "<!--" can appear), so are U+2028 and U+2029, and bytes that are not
 * valid UTF-8 become U+FFFD. Writes at most 6 * strlen(s) + 2 bytes into dst; returns the
 * number written. */
size_t hs_json_string(char *dst, const char *s);

#endif
