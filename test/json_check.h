/* json_check.h: a strict JSON checker (RFC 8259) for the tests of what the agent writes as
 * JSON (the flame graph's data, the json=true answers of top and status): enough to prove
 * the text parses. Header-only: each test includes it once. */
#ifndef HS_TEST_JSON_CHECK_H
#define HS_TEST_JSON_CHECK_H

#include <stdbool.h>
#include <string.h>

static const char *json_value(const char *s, int depth);

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    return s;
}

static const char *json_string(const char *s) {
    if (*s++ != '"') return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*s++;
        if (c == '"') return s;
        if (c < 0x20) return NULL; /* raw control characters are not allowed */
        if (c != '\\') continue;
        c = (unsigned char)*s++;
        if (c == 'u') {
            for (int i = 0; i < 4; i++, s++)
                if (!strchr("0123456789abcdefABCDEF", *s) || !*s) return NULL;
        } else if (!c || !strchr("\"\\/bfnrt", c)) {
            return NULL;
        }
    }
}

static const char *json_digits(const char *s) {
    if (*s < '0' || *s > '9') return NULL;
    while (*s >= '0' && *s <= '9') s++;
    return s;
}

static const char *json_number(const char *s) {
    if (*s == '-') s++;
    if (*s == '0') s++;
    else if (!(s = json_digits(s))) return NULL;
    if (*s == '.' && !(s = json_digits(s + 1))) return NULL;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(s = json_digits(s))) return NULL;
    }
    return s;
}

static const char *json_list(const char *s, char close, int object, int depth) {
    s = skip_ws(s + 1);
    if (*s == close) return s + 1;
    for (;;) {
        if (object) {
            s = json_string(skip_ws(s));
            if (!s || *(s = skip_ws(s)) != ':') return NULL;
            s++;
        }
        s = json_value(s, depth + 1);
        if (!s) return NULL;
        s = skip_ws(s);
        if (*s == close) return s + 1;
        if (*s++ != ',') return NULL;
    }
}

static const char *json_value(const char *s, int depth) {
    if (depth > 64) return NULL;
    s = skip_ws(s);
    if (*s == '{') return json_list(s, '}', 1, depth);
    if (*s == '[') return json_list(s, ']', 0, depth);
    if (*s == '"') return json_string(s);
    static const char *const literals[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++)
        if (strncmp(s, literals[i], strlen(literals[i])) == 0) return s + strlen(literals[i]);
    return json_number(s);
}

/* Whether text is exactly one JSON value (and white space). */
static inline bool json_check(const char *text) {
    const char *end = json_value(text, 0);
    return end && *skip_ws(end) == '\0';
}

#endif
