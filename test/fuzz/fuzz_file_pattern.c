/* fuzz_file_pattern.c: libFuzzer harness for the file-name pattern expander
 * (hs_expand_file_pattern_n in src/control/options.c), checked against a plain reference.
 *
 * Input: 8 bytes of pid, 8 bytes of time, 2 bytes of output size (0..4096), then the
 * pattern (cut at its first NUL); the sequence number for %n is taken from the pid bytes
 * (its low 32 bits), so the corpus keeps its layout. The expander must agree with the reference on success
 * or failure and on the text; its output and error are always NUL-terminated within their
 * buffers, and it never writes past them (ASan). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control/options.h"

#define CHECK(cond) \
    do {            \
        if (!(cond)) abort(); \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: %p pid, %t the time as YYYYmmdd-HHMMSS (local), %n the sequence number,
 * %% '%'; anything else after '%' fails; so does an expansion that does not fit outlen - 1
 * bytes. */
static int reference(const char *pattern, long pid, time_t start, unsigned long seq, char *out,
                     size_t outlen) {
    size_t used = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[80];
        if (*p != '%') {
            piece[0] = *p;
            piece[1] = '\0';
        } else if (p[1] == 'p') {
            snprintf(piece, sizeof piece, "%ld", pid);
            p++;
        } else if (p[1] == 't') {
            struct tm tm;
            if (!localtime_r(&start, &tm)) return -1;
            snprintf(piece, sizeof piece, "%04d%02d%02d-%02d%02d%02d", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
            p++;
        } else if (p[1] == 'n') {
            snprintf(piece, sizeof piece, "%lu", seq);
            p++;
        } else if (p[1] == '%') {
            strcpy(piece, "%");
            p++;
        } else {
            return -1;
        }
        size_t len = strlen(piece);
        if (outlen == 0 || used + len > outlen - 1) return -1;
        memcpy(out + used, piece, len);
        used += len;
    }
    if (outlen == 0) return -1;
    out[used] = '\0';
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 18) return 0;
    int64_t pid, start;
    memcpy(&pid, data, 8);
    memcpy(&start, data + 8, 8);
    size_t outlen = ((size_t)data[16] << 8 | data[17]) % 4097;
    char *pattern = malloc(size - 17);
    char *out = malloc(outlen ? outlen : 1), *expected = malloc(outlen ? outlen : 1);
    if (!pattern || !out || !expected) abort();
    memcpy(pattern, data + 18, size - 18);
    pattern[size - 18] = '\0';
    char err[256];
    memset(err, 'X', sizeof err);
    unsigned long seq = (unsigned long)((uint64_t)pid & 0xffffffffu);
    int rc = hs_expand_file_pattern_n(pattern, (long)pid, (time_t)start, seq, out, outlen, err,
                                      sizeof err);
    int want = reference(pattern, (long)pid, (time_t)start, seq, expected, outlen);
    CHECK(rc == want);
    CHECK(memchr(err, '\0', sizeof err) != NULL);
    if (rc == 0) {
        CHECK(err[0] == '\0');
        CHECK(strcmp(out, expected) == 0);
    } else {
        CHECK(err[0] != '\0');
    }
    free(pattern);
    free(out);
    free(expected);
    return 0;
}
