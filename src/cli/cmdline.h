/* cmdline.h: what a java command line runs (pure), for `heapsampler list`.
 *
 * Reads the NUL-separated /proc/PID/cmdline of a java launcher: skips the launcher and
 * the JVM's options (with the values of -cp, --module-path and the like), and names
 * `-jar X` as X, `-m mod/cls` as mod/cls, else the main class (or source file). Another
 * launcher (javac, jshell, a product's own binary) is named by its file name. A JVM of
 * another architecture under qemu-user (an arm64 container on an x86-64 host) is named by
 * the program qemu runs, qemu's own options skipped. */
#ifndef HS_CLI_CMDLINE_H
#define HS_CLI_CMDLINE_H

#include <stddef.h>

/* Writes what the command line runs into out ("?" when it cannot tell). */
void cli_main_class(const char *cmdline, size_t len, char *out, size_t outlen);

#endif
