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

/* qemu-user's options that take a value (qemu 7: linux-user/main.c), given as -X or --X. */
static const char *const qemu_takes_value[] = {
    "L", "E", "U", "0", "s", "R", "B", "g", "cpu", "d", "D", "dfilter", "p", "r", "seed", "trace", "plugin",
};

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A JVM of another architecture run by qemu-user (qemu-aarch64, qemu-aarch64-static, or
 * through binfmt_misc) shows qemu's command line: [qemu, qemu's options..., program, args]
 * where binfmt_misc with the P flag keeps the program's own argv[0] after the program's
 * path. Returns the index of the emulated program's argv[0], 0 if args[0] is no qemu. */
static size_t emulated_program(const char *const *args, size_t argc) {
    if (strncmp(base_name(args[0]), "qemu-", 5) != 0 && !strstr(base_name(args[0]), "-binfmt-")) return 0;
    size_t i = 1;
    while (i < argc && args[i][0] == '-') {
        const char *name = args[i] + (args[i][1] == '-' ? 2 : 1);
        bool value = false;
        for (size_t k = 0; k < sizeof qemu_takes_value / sizeof qemu_takes_value[0]; k++)
            if (strcmp(name, qemu_takes_value[k]) == 0) value = true;
        i += value ? 2 : 1;
    }
    if (i + 1 < argc && strcmp(base_name(args[i + 1]), base_name(args[i])) == 0) i++; /* argv[0] kept */
    return i < argc ? i : 0;
}

void cli_main_class(const char *cmdline, size_t len, char *out, size_t outlen) {
    snprintf(out, outlen, "?");
    /* argv as copies (a process may leave its last argument without a NUL) */
    char copy[8192];
    const char *all[512];
    size_t argc = 0;
    if (len >= sizeof copy) len = sizeof copy - 1;
    memcpy(copy, cmdline, len);
    copy[len] = '\0';
    for (size_t i = 0; i < len && argc < sizeof all / sizeof all[0]; i += strlen(copy + i) + 1)
        all[argc++] = copy + i;
    if (argc == 0) return;
    size_t program = emulated_program(all, argc);
    const char *const *args = all + program;
    argc -= program;
    const char *launcher = base_name(args[0]);
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
