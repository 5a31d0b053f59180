/* command.h: the commands a running agent takes through jcmd.
 *
 *   jcmd <pid> JVMTI.agent_load /path/libheapsampler.so '"<command>"'
 *
 * loads the same library again; the JVM then calls Agent_OnAttach of the copy already
 * loaded, and the agent reads its options string as a command (control.c runs it). This
 * file only parses: pure C, no JVM, so every form is unit-tested.
 *
 *   dump[,file=PATTERN][,paths=N][,gc=1]
 *                                write a profile now; paths=N also writes the retention
 *                                paths of the N largest in-use sites (retention.h); gc=1
 *                                first forces a full collection (liveness.h)
 *   start[,interval=N][,log=L][,rate=N/s]
 *                                sampling on again (after stop), optionally at a new
 *                                interval or rate cap
 *   stop                         sampling off, tracked weak refs released
 *   status[,file=PATTERN]        the agent's state, one fact per line
 *   help                         the list of commands
 *
 * Option values are checked by the option table (options.c), so a command accepts exactly
 * what the same option accepts at startup. */
#ifndef HS_COMMAND_H
#define HS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

#define HS_COMMAND_MAX_PATHS 64

typedef enum { HS_CMD_DUMP = 0, HS_CMD_START, HS_CMD_STOP, HS_CMD_STATUS, HS_CMD_HELP } hs_command_kind;

typedef struct {
    hs_command_kind kind;
    bool has_file;     /* file= was given (its pattern is in options.file) */
    bool has_interval; /* interval= was given (start) */
    bool has_rate;     /* rate= was given (start) */
    unsigned paths;    /* dump: paths=N (0: none), 1 .. HS_COMMAND_MAX_PATHS */
    bool gc;           /* dump: gc=1, force a full collection first */
    hs_options options; /* the running agent's options with the command's items applied */
} hs_command;

/* Parses text against the agent's current options. Returns 0, or -1 with one line in err:
 *   bad command 'TEXT': <why>; accepted: <the commands and their options>
 * cmd is written only on success. */
int hs_command_parse(const char *text, const hs_options *current, hs_command *cmd, char *err,
                     size_t errlen);

/* The commands and what they take, one per line, for `help`. Returns the length needed. */
size_t hs_command_help(char *buf, size_t len);

#endif
