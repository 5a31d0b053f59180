/* cli_error.h: the heapsampler command's exit codes and its one-line failure record.
 *
 * Every failure of the command ends as one "heapsampler: ..." line on stderr and one of
 * these exit codes; scripts (and the jtreg tests) rely on the numbers, so they never move. */
#ifndef HS_CLI_ERROR_H
#define HS_CLI_ERROR_H

#include <stddef.h>

enum {
    CLI_OK = 0,
    CLI_EXIT_USAGE = 1,       /* unknown verb or flag, pid not a number, bad -n */
    CLI_EXIT_NO_PROCESS = 2,  /* no such process */
    CLI_EXIT_NOT_JVM = 3,     /* the process does not map libjvm.so */
    CLI_EXIT_PERMISSION = 4,  /* another user's JVM and we are not root */
    CLI_EXIT_ATTACH = 5,      /* attach failed or refused */
    CLI_EXIT_TIMEOUT = 6,     /* --timeout elapsed */
    CLI_EXIT_NOT_LOADED = 7,  /* the verb needs the agent and it is not loaded */
    CLI_EXIT_VERSION = 8,     /* the agent's version differs from the command's */
    CLI_EXIT_AGENT = 9,       /* the agent answered with an error */
    CLI_EXIT_EXISTS = 10,     /* the output file exists (no --force) */
    CLI_EXIT_WRITE = 11,      /* writing the output failed */
    CLI_EXIT_LOADED = 12,     /* load: the agent is already loaded */
};

/* A failure: its exit code and the line to print (without the "heapsampler: " prefix). */
typedef struct {
    int code;
    char msg[768];
} cli_err;

/* Records a failure and returns its code (so `return cli_fail(e, 5, ...)` reads well). */
int cli_fail(cli_err *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
