/* fuzz_options.c: libFuzzer harness for the option parser (src/control/options.c).
 *
 * Input: the first byte picks the error buffer's size (1..256, or 0 = none); the rest is
 * the option string (cut at its first NUL, like the JVM's). Checked on every input:
 * - the error text is always NUL-terminated inside its buffer, empty on success, and on
 *   failure (with a buffer large enough) has the documented shape
 *   "bad option '...': <why>; accepted: <what>" (or names the output directory);
 * - a failure leaves the options as they were;
 * - on success, formatting the options and parsing the result gives the same options
 *   (format and parse are inverses), and the help text fits its documented size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control/options.h"

#define CHECK(cond) \
    do {            \
        if (!(cond)) abort(); \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const char *err, size_t errlen, int rc) {
    if (errlen == 0) return;
    CHECK(memchr(err, '\0', errlen) != NULL);
    if (rc == 0) CHECK(err[0] == '\0');
    else if (errlen >= 1024) CHECK(strncmp(err, "bad option '", 12) == 0 && strstr(err, "; accepted: "));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t errlen = data[0] == 255 ? 4096 : data[0];
    char *text = malloc(size);
    char *err = malloc(errlen ? errlen : 1);
    if (!text || !err) abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    memset(err, 'X', errlen ? errlen : 1);

    hs_options opts, before;
    hs_options_defaults(&opts);
    before = opts;
    int rc = hs_options_parse(text, &opts, errlen ? err : NULL, errlen);
    CHECK(rc == 0 || rc == -1);
    check_err(err, errlen, rc);
    if (rc != 0) CHECK(memcmp(&opts, &before, sizeof opts) == 0);

    if (rc == 0) {
        static char formatted[2 * HS_PATH_MAX], again[2 * HS_PATH_MAX], perr[1024];
        size_t need = hs_options_format(&opts, formatted, sizeof formatted);
        CHECK(need < sizeof formatted);
        hs_options reparsed;
        hs_options_defaults(&reparsed);
        CHECK(hs_options_parse(formatted, &reparsed, perr, sizeof perr) == 0);
        hs_options_format(&reparsed, again, sizeof again);
        CHECK(strcmp(formatted, again) == 0);
    }
    free(text);
    free(err);
    return 0;
}
