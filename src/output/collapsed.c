/* collapsed.c: the collapsed-stack text encoder (see collapsed.h).
 *
 * Each sample becomes "root;caller;...;leaf VALUE": frames root first, so the sample's
 * leaf-first location list is walked backwards and the allocated-class pseudo-frame
 * (the first location) comes out last. Lines are sorted bytewise (strcmp, not the
 * locale) so that equal stacks become neighbours and are merged, and so that the same
 * profile always gives the same text.
 *
 * Frame names are escaped: ';' separates frames, a newline ends a record, and the space
 * before the value is where readers split the stack from the value (some split at the
 * first space, not the last). JVM method and class names may legally contain spaces
 * (Kotlin's `fun \`my test\`()`), so each of ' ', ';' and every control character is
 * written as '_'. An empty name, or a sample without frames, is written as "[unknown]",
 * the name perf and flamegraph.pl use for a frame they cannot name, rather than an
 * empty frame that readers would collapse away. */
#include "output/collapsed.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNKNOWN_FRAME "[unknown]"

typedef struct {
    char *stack; /* frames root first, joined by ';' */
    int64_t value;
} stack_line;

static const char *frame_name(const hs_profile *p, uint32_t location) {
    const char *name = p->functions[p->locations[location].function].name;
    return name && *name ? name : UNKNOWN_FRAME;
}

static char escape_char(char c) {
    unsigned char u = (unsigned char)c;
    return (c == ';' || c == ' ' || u < 0x20 || u == 0x7f) ? '_' : c;
}

/* The sample's stack as a malloc'd string, root first, names escaped. NULL on ENOMEM. */
static char *format_stack(const hs_profile *p, const hs_sample *s) {
    if (s->depth == 0) return strdup(UNKNOWN_FRAME);
    size_t len = s->depth - 1; /* separators */
    for (uint32_t i = 0; i < s->depth; i++) len += strlen(frame_name(p, s->locations[i]));
    char *stack = malloc(len + 1);
    if (!stack) return NULL;
    char *w = stack;
    for (uint32_t i = s->depth; i-- > 0;) {
        for (const char *r = frame_name(p, s->locations[i]); *r; r++) *w++ = escape_char(*r);
        if (i > 0) *w++ = ';';
    }
    *w = '\0';
    return stack;
}

static int compare_lines(const void *a, const void *b) {
    return strcmp(((const stack_line *)a)->stack, ((const stack_line *)b)->stack);
}

/* Adds without wrapping: a saturated total is still the most truthful number. */
static int64_t saturating_add(int64_t a, int64_t b) {
    int64_t sum;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

/* Sorts lines and merges neighbours with equal stacks, freeing the merged-away
 * strings. Returns the new count. */
static size_t merge_lines(stack_line *lines, size_t n) {
    if (n == 0) return 0;
    qsort(lines, n, sizeof *lines, compare_lines);
    size_t kept = 0;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(lines[kept].stack, lines[i].stack) == 0) {
            lines[kept].value = saturating_add(lines[kept].value, lines[i].value);
            free(lines[i].stack);
        } else {
            lines[++kept] = lines[i];
        }
    }
    return kept + 1;
}

/* Renders the merged lines; a merged total of 0 (values that cancel) is left out
 * like a zero sample. */
static char *render(const stack_line *lines, size_t n, size_t *outlen) {
    size_t total = 0;
    char number[24];
    for (size_t i = 0; i < n; i++) {
        if (lines[i].value == 0) continue;
        int digits = snprintf(number, sizeof number, "%" PRId64, lines[i].value);
        total += strlen(lines[i].stack) + 1 + (size_t)digits + 1;
    }
    char *text = malloc(total + 1);
    if (!text) return NULL;
    char *w = text;
    for (size_t i = 0; i < n; i++) {
        if (lines[i].value == 0) continue;
        size_t stack_len = strlen(lines[i].stack);
        memcpy(w, lines[i].stack, stack_len);
        w += stack_len;
        w += sprintf(w, " %" PRId64 "\n", lines[i].value);
    }
    *w = '\0';
    *outlen = total;
    return text;
}

int hs_collapsed_encode(const hs_profile *p, uint32_t value_index, char **out, size_t *outlen) {
    *out = NULL;
    *outlen = 0;
    if (p->failed) {
        errno = ENOMEM;
        return -1;
    }
    if (value_index >= p->nsample_types) {
        errno = EINVAL;
        return -1;
    }
    stack_line *lines = malloc(((size_t)p->nsamples + 1) * sizeof *lines);
    if (!lines) return -1;
    size_t n = 0;
    int rc = 0;
    for (uint32_t i = 0; i < p->nsamples && rc == 0; i++) {
        const hs_sample *s = &p->samples[i];
        if (s->values[value_index] == 0) continue;
        char *stack = format_stack(p, s);
        if (!stack) {
            rc = -1;
            break;
        }
        lines[n++] = (stack_line){stack, s->values[value_index]};
    }
    if (rc == 0) {
        n = merge_lines(lines, n);
        *out = render(lines, n, outlen);
        if (!*out) rc = -1;
    }
    for (size_t i = 0; i < n; i++) free(lines[i].stack);
    free(lines);
    if (rc != 0) errno = ENOMEM;
    return rc;
}
