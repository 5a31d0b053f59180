/* dump_files.c: naming and retention of a run's profile files (see dump_files.h). */
#include "control/dump_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/options.h"

/* Whether the pattern has the escape %c (a "%%" is skipped, not read as an escape). */
static bool pattern_has(const char *pattern, char c) {
    for (const char *p = strchr(pattern, '%'); p && p[1]; p = strchr(p + 2, '%'))
        if (p[1] == c) return true;
    return false;
}

int hs_dump_files_init(hs_dump_files *f, const char *pattern, long pid, uint32_t keep) {
    memset(f, 0, sizeof *f);
    f->pattern = strdup(pattern);
    f->kept = keep ? calloc(keep, sizeof *f->kept) : NULL;
    if (!f->pattern || (keep && !f->kept)) {
        hs_dump_files_free(f);
        return -1;
    }
    f->pid = pid;
    f->keep = keep;
    f->has_n = pattern_has(pattern, 'n');
    f->has_t = pattern_has(pattern, 't');
    return 0;
}

void hs_dump_files_free(hs_dump_files *f) {
    for (uint32_t i = 0; f->kept && i < f->nkept; i++) free(f->kept[(f->kept_first + i) % f->keep]);
    free(f->kept);
    free(f->pattern);
    memset(f, 0, sizeof *f);
}

/* Where the extension of path's own file name starts (its length when there is none):
 * the last '.', or the one before it when the extension is ".gz" (".pb.gz"). A name
 * that starts with its only '.' (".profile") has no extension. */
static size_t extension_start(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name) return strlen(path);
    if (strcmp(dot, ".gz") == 0) {
        const char *prev = dot;
        while (prev > name + 1 && prev[-1] != '.') prev--;
        if (prev > name + 1) dot = prev - 1;
    }
    return (size_t)(dot - path);
}

int hs_dump_insert_suffix(const char *path, const char *suffix, char *out, size_t outlen) {
    size_t at = extension_start(path);
    int n = snprintf(out, outlen, "%.*s-%s%s", (int)at, path, suffix, path + at);
    if (n < 0 || (size_t)n >= outlen) {
        if (outlen > 0) out[0] = '\0';
        return -1;
    }
    return 0;
}

/* Whether a %t name with this suffix at `now` could repeat an earlier one; remembers now. */
static bool time_repeats(hs_dump_files *f, const char *suffix, time_t now) {
    const char *key = suffix ? suffix : "";
    for (uint32_t i = 0; i < f->ntimes; i++) {
        if (strcmp(f->times[i].suffix, key) != 0) continue;
        if (now <= f->times[i].time) return true;
        f->times[i].time = now;
        return false;
    }
    if (f->ntimes == HS_DUMP_SUFFIXES || strlen(key) >= sizeof f->times[0].suffix) return true;
    snprintf(f->times[f->ntimes].suffix, sizeof f->times[0].suffix, "%s", key);
    f->times[f->ntimes++].time = now;
    return false;
}

int hs_dump_files_name(hs_dump_files *f, const char *suffix, bool numbered, time_t now,
                       char *out, size_t outlen, char *err, size_t errlen) {
    unsigned long n = ++f->seq;
    char expanded[HS_PATH_MAX];
    if (hs_expand_file_pattern_n(f->pattern, f->pid, now, n, expanded, sizeof expanded, err,
                                 errlen) != 0)
        return -1;
    bool add_number = !f->has_n && ((numbered && !f->has_t) ||
                                    (f->has_t && time_repeats(f, suffix, now)));
    char full_suffix[128];
    if (suffix && add_number) snprintf(full_suffix, sizeof full_suffix, "%s-%lu", suffix, n);
    else if (add_number) snprintf(full_suffix, sizeof full_suffix, "%lu", n);
    else if (suffix) snprintf(full_suffix, sizeof full_suffix, "%s", suffix);
    int rc;
    if (suffix || add_number) {
        rc = hs_dump_insert_suffix(expanded, full_suffix, out, outlen);
    } else {
        size_t len = strlen(expanded);
        rc = len < outlen ? 0 : -1;
        if (rc == 0) memcpy(out, expanded, len + 1);
    }
    if (rc != 0)
        snprintf(err, errlen, "the file name is longer than %zu bytes",
                 outlen > 0 ? outlen - 1 : 0);
    return rc;
}

int hs_dump_files_name_pattern(hs_dump_files *f, const char *pattern, time_t now, char *out,
                               size_t outlen, char *err, size_t errlen) {
    return hs_expand_file_pattern_n(pattern, f->pid, now, ++f->seq, out, outlen, err, errlen);
}

int hs_dump_files_retain(hs_dump_files *f, const char *path, char *evicted, size_t evicted_len) {
    if (f->keep == 0) return 0;
    char *copy = strdup(path);
    if (!copy) return -1;
    if (f->nkept == f->keep) { /* full: the oldest goes */
        char *oldest = f->kept[f->kept_first];
        snprintf(evicted, evicted_len, "%s", oldest);
        free(oldest);
        f->kept[f->kept_first] = copy;
        f->kept_first = (f->kept_first + 1) % f->keep;
        return 1;
    }
    f->kept[(f->kept_first + f->nkept) % f->keep] = copy;
    f->nkept++;
    return 0;
}
