/* jvm_names.c: JVM signatures -> readable Java names (see jvm_names.h). */
#include "sampling/jvm_names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends text to out at *pos, truncating safely; *pos counts the full length needed. */
static void append(char *out, size_t outlen, size_t *pos, const char *text, size_t n) {
    if (*pos < outlen) {
        size_t room = outlen - 1 - *pos;
        memcpy(out + *pos, text, n < room ? n : room);
    }
    *pos += n;
}

static void terminate(char *out, size_t outlen, size_t pos) {
    if (outlen > 0) out[pos < outlen ? pos : outlen - 1] = '\0';
}

static const char *primitive_name(char code) {
    switch (code) {
    case 'Z': return "boolean";
    case 'B': return "byte";
    case 'C': return "char";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'F': return "float";
    case 'D': return "double";
    case 'V': return "void";
    default: return NULL;
    }
}

/* Appends an internal class name with '/' turned into '.'. */
static void append_dotted(char *out, size_t outlen, size_t *pos, const char *name, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = name[i] == '/' ? '.' : name[i];
        append(out, outlen, pos, &c, 1);
    }
}

size_t hs_class_name(const char *signature, char *out, size_t outlen) {
    size_t pos = 0;
    size_t dims = 0;
    const char *s = signature ? signature : "";
    while (s[dims] == '[') dims++;
    const char *element = s + dims;
    size_t len = strlen(element);
    const char *primitive = len == 1 ? primitive_name(element[0]) : NULL;
    if (primitive) {
        append(out, outlen, &pos, primitive, strlen(primitive));
    } else if (len >= 2 && element[0] == 'L' && element[len - 1] == ';') {
        append_dotted(out, outlen, &pos, element + 1, len - 2);
    } else { /* not a descriptor we know: show it as given */
        append(out, outlen, &pos, s, strlen(s));
        terminate(out, outlen, pos);
        return pos;
    }
    for (size_t i = 0; i < dims; i++) append(out, outlen, &pos, "[]", 2);
    terminate(out, outlen, pos);
    return pos;
}

size_t hs_class_internal_name(const char *signature, char *out, size_t outlen) {
    size_t pos = 0;
    const char *s = signature ? signature : "";
    size_t len = strlen(s);
    if (len >= 2 && s[0] == 'L' && s[len - 1] == ';')
        append(out, outlen, &pos, s + 1, len - 2);
    else
        append(out, outlen, &pos, s, len);
    terminate(out, outlen, pos);
    return pos;
}

size_t hs_method_display_name(const char *class_signature, const char *method, char *out,
                              size_t outlen) {
    size_t pos = hs_class_name(class_signature, out, outlen);
    append(out, outlen, &pos, ".", 1);
    append(out, outlen, &pos, method, strlen(method));
    terminate(out, outlen, pos);
    return pos;
}

size_t hs_method_system_name(const char *class_signature, const char *method,
                             const char *method_signature, char *out, size_t outlen) {
    size_t pos = hs_class_internal_name(class_signature, out, outlen);
    append(out, outlen, &pos, ".", 1);
    append(out, outlen, &pos, method, strlen(method));
    append(out, outlen, &pos, method_signature, strlen(method_signature));
    terminate(out, outlen, pos);
    return pos;
}

size_t hs_source_path(const char *class_signature, const char *source_file, char *out,
                      size_t outlen) {
    size_t pos = 0;
    if (source_file && *source_file) {
        /* package = internal name up to its last '/' (inclusive) */
        const char *s = class_signature ? class_signature : "";
        size_t len = strlen(s);
        if (len >= 2 && s[0] == 'L' && s[len - 1] == ';') {
            const char *slash = NULL;
            for (const char *p = s + 1; p < s + len - 1; p++)
                if (*p == '/') slash = p;
            if (slash) append(out, outlen, &pos, s + 1, (size_t)(slash - s));
        }
        const char *base = strrchr(source_file, '/');
        base = base ? base + 1 : source_file;
        append(out, outlen, &pos, base, strlen(base));
    }
    terminate(out, outlen, pos);
    return pos;
}

static bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Length of a hidden-class address at s ("/0x7f56..." or ".0x7f56..."), 0 if none. */
static size_t address_length(const char *s) {
    if ((s[0] != '.' && s[0] != '/') || s[1] != '0' || s[2] != 'x') return 0;
    size_t n = 3;
    while (is_hex(s[n])) n++;
    bool ends = s[n] == '\0' || strchr(";./[", s[n]) != NULL;
    return n - 3 >= 4 && ends ? n : 0;
}

/* Length of a JDK 17 lambda counter at s ("$14" right after "$$Lambda"), 0 if none. */
static size_t lambda_counter_length(const char *name, const char *s) {
    static const char MARK[] = "$$Lambda";
    size_t mark = sizeof MARK - 1;
    if ((size_t)(s - name) < mark || strncmp(s - mark, MARK, mark) != 0 || s[0] != '$') return 0;
    size_t n = 1;
    while (s[n] >= '0' && s[n] <= '9') n++;
    return n > 1 && (s[n] == '\0' || strchr(";./[", s[n]) != NULL) ? n : 0;
}

size_t hs_stable_name(const char *name, char *out, size_t outlen) {
    const char *s = name ? name : "";
    size_t pos = 0;
    for (const char *p = s; *p;) {
        size_t skip = address_length(p);
        if (!skip) skip = lambda_counter_length(s, p);
        if (skip) {
            p += skip;
        } else { /* one byte at a time, never ahead of p: out may be name itself */
            if (pos + 1 < outlen) out[pos] = *p;
            pos++;
            p++;
        }
    }
    terminate(out, outlen, pos);
    return pos;
}

static int compare_line_entries(const void *a, const void *b) {
    int32_t x = ((const hs_line_entry *)a)->bci, y = ((const hs_line_entry *)b)->bci;
    return (x > y) - (x < y);
}

void hs_line_table_sort(hs_line_entry *table, uint32_t n) {
    if (n > 1) qsort(table, n, sizeof *table, compare_line_entries);
}

int32_t hs_line_for_bci(const hs_line_entry *table, uint32_t n, int32_t bci) {
    if (!table || n == 0 || bci < 0 || bci < table[0].bci) return 0;
    uint32_t lo = 0, hi = n; /* invariant: table[lo].bci <= bci, answer in [lo, hi) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (table[mid].bci <= bci)
            lo = mid;
        else
            hi = mid;
    }
    return table[lo].line;
}

bool hs_is_jdk_frame(const char *name) {
    static const char *const prefixes[] = {"java.", "javax.", "jdk.", "sun.", "com.sun."};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return true;
    return false;
}

static bool is_pseudo_frame(const char *name) { return name[0] == '['; }

#define SITE_ARROW "\xe2\x86\x92" /* → */

void hs_site_key(const char *const *frames, const int64_t *lines, uint32_t n,
                 const char *class_name, char *out, size_t len) {
    const char *cls = class_name && *class_name ? class_name : "[unknown]";
    uint32_t pick = 0;
    while (pick < n && (hs_is_jdk_frame(frames[pick]) || is_pseudo_frame(frames[pick]))) pick++;
    if (pick == n) pick = 0; /* all in the JDK: the leaf frame */
    if (n == 0)
        snprintf(out, len, "[no Java frames] " SITE_ARROW " %s", cls);
    else if (lines[pick] > 0)
        snprintf(out, len, "%s:%lld " SITE_ARROW " %s", frames[pick], (long long)lines[pick], cls);
    else
        snprintf(out, len, "%s " SITE_ARROW " %s", frames[pick], cls);
}
