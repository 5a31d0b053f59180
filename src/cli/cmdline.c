/* cmdline.c: naming what a java command line runs (see cmdline.h). */
#include "cmdline.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Launcher options whose value is the next argument. */
static const char *const takes_value[] = {
    "-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path",
    "--add-modules", "--add-opens", "--add-exports", "--add-reads", "--limit-modules",
    "--patch-module", "--enable-native-access", "--source", "-d", "--describe-module",
    "--illegal-native-access", "--sun-misc-unsafe-memory-access",
};

static bool needs_value(const char *arg) {
    for (size_t i = 0; i < sizeof takes_value / sizeof takes_value[0]; i++)
        if (strcmp(arg, takes_value[i]) == 0) return true;
    return false;
}

void cli_main_class(const char *cmdline, size_t len, char *out, size_t outlen) {
    snprintf(out, outlen, "?");
    /* argv as copies (a process may leave its last argument without a NUL) */
    char copy[8192];
    const char *args[512];
    size_t argc = 0;
    if (len >= sizeof copy) len = sizeof copy - 1;
    memcpy(copy, cmdline, len);
    copy[len] = '\0';
    for (size_t i = 0; i < len && argc < sizeof args / sizeof args[0]; i += strlen(copy + i) + 1)
        args[argc++] = copy + i;
    if (argc == 0) return;
    const char *slash = strrchr(args[0], '/');
    const char *launcher = slash ? slash + 1 : args[0];
    if (strcmp(launcher, "java") != 0 && strcmp(launcher, "javaw") != 0) { /* javac, jshell, a native launcher */
        snprintf(out, outlen, "%s", launcher);
        return;
    }
    for (size_t i = 1; i < argc; i++) {
        const char *a = args[i];
        if ((strcmp(a, "-jar") == 0 || strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0)) {
            if (i + 1 < argc) snprintf(out, outlen, "%s", args[i + 1]);
            return;
        }
        if (strncmp(a, "--module=", 9) == 0) {
            snprintf(out, outlen, "%s", a + 9);
            return;
        }
        if (needs_value(a)) {
            i++;
            continue;
        }
        if (a[0] == '-') continue; /* -Xmx1g, -Dk=v, -XX:..., --add-opens=..., -agentpath:... */
        snprintf(out, outlen, "%s", a);
        return;
    }
}
