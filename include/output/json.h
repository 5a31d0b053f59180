/* json.h: writing JSON text (the `top` and `status` answers with json=true, the profile
 * inside the HTML flame graph).
 *
 * A writer appends to an hs_text and puts the commas itself: open an object or array,
 * write members (a key inside objects, NULL inside arrays), close it. Strings are strict
 * JSON of valid UTF-8 (hs_json_string); numbers that are not finite are written as null
 * (JSON has no NaN). Nesting deeper than HS_JSON_MAX_DEPTH marks the text failed. Pure C. */
#ifndef HS_JSON_H
#define HS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/text.h"

/* Writes s as a JSON string literal (quotes included) that is also safe inside an HTML
 * <script> element: '<', '>' and '&' are written as \u escapes, so are U+2028 and U+2029
 * and every control character, and bytes that are not valid UTF-8 become U+FFFD. Writes
 * at most 6 * strlen(s) + 2 bytes into dst; returns the number written. */
size_t hs_json_string(char *dst, const char *s);

#define HS_JSON_MAX_DEPTH 16

typedef struct {
    hs_text *out;
    int depth;
    bool has_member[HS_JSON_MAX_DEPTH]; /* a comma goes before the next member */
    char closer[HS_JSON_MAX_DEPTH];     /* '{' or '[': what each level opened */
} hs_json;

void hs_json_begin(hs_json *w, hs_text *out);
/* key: the member's name inside an object; NULL inside an array (or at the top). */
void hs_json_object(hs_json *w, const char *key);
void hs_json_array(hs_json *w, const char *key);
void hs_json_end(hs_json *w); /* closes the innermost object or array */
void hs_json_str(hs_json *w, const char *key, const char *value); /* NULL: null */
void hs_json_num(hs_json *w, const char *key, double value);     /* not finite: null */
void hs_json_int(hs_json *w, const char *key, int64_t value);
void hs_json_bool(hs_json *w, const char *key, bool value);
void hs_json_null(hs_json *w, const char *key);

#endif
