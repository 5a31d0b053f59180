/* command.h: the commands a running agent takes through jcmd.
 *
 *   jcmd <pid> JVMTI.agent_load /path/libheapsampler.so '"<command>"'
 *
 * loads the same library again; the JVM then calls Agent_OnAttach of the copy already
 * loaded, and the agent reads its options string as a command (control.c runs it). This
 * file only parses: pure C, no JVM, so every form is unit-tested.
 *
 *   dump[,file=PATTERN][,paths=N[,budget=D]][,format=F][,out=PATH][,paths_out=PATH][,gc=1]
 *                                write a profile now; paths=N also writes the retention
 *                                paths of the N largest in-use sites (retention.h), each
 *                                pause of that walk within budget= (default paths_budget=);
 *                                format=pprof|html|collapsed|text (text: the report) for
 *                                this dump only; out= into a file the caller created;
 *                                gc=1 first forces a full collection (liveness.h)
 *   top[,n=N][,by=inuse|alloc|growth][,width=COLS][,stack=true][,gc=1]
 *                                the report (report.h) as the answer; gc=1 as dump's
 *   paths[,n=N][,budget=D][,out=PATH]
 *                                the retention paths of the N largest in-use sites as
 *                                text; out= also gets the pprof paths profile
 *   start[,interval=N][,log=L][,rate=N/s][,http=[HOST:]PORT[,http_token=@FILE]]
 *                                sampling on again (after stop), optionally at a new
 *                                interval or rate cap, with the endpoint of http= if the
 *                                options have one; http= alone also works while sampling
 *                                runs: it opens the endpoint (http_export.h)
 *   stop                         sampling off, tracked weak refs released, the HTTP
 *                                endpoint closed
 *   status[,file=PATTERN]        the agent's state, one fact per line
 *   help                         the list of commands
 *
 * Every command takes reply=PATH: the answer goes into that file (reply.h), never to the
 * JVM's stdout. reply=, out= and paths_out= name absolute paths of files that exist.
 *
 * Option values are checked by the option table (options.c), so a command accepts exactly
 * what the same option accepts at startup. */
#ifndef HS_COMMAND_H
#define HS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "control/options.h"
#include "output/report.h"

#define HS_COMMAND_MAX_PATHS 64

typedef enum {
    HS_CMD_DUMP = 0,
    HS_CMD_START,
    HS_CMD_STOP,
    HS_CMD_STATUS,
    HS_CMD_HELP,
    HS_CMD_TOP,
    HS_CMD_PATHS
} hs_command_kind;

/* dump,format=: the startup format=, or one for this dump. */
typedef enum {
    HS_DUMP_STARTUP_FORMAT = 0,
    HS_DUMP_PPROF,
    HS_DUMP_COLLAPSED,
    HS_DUMP_HTML,
    HS_DUMP_TEXT
} hs_dump_format;

#define HS_PATHS_DEFAULT 5

typedef struct {
    hs_command_kind kind;
    bool has_file;     /* file= was given (its pattern is in options.file) */
    bool has_interval; /* interval= was given (start) */
    bool has_rate;     /* rate= was given (start) */
    bool has_http;     /* http= or http_token= was given (start) */
    unsigned paths;    /* dump: paths=N (0: none); paths: n=N; 1 .. HS_COMMAND_MAX_PATHS */
    int64_t paths_budget_ms;    /* budget=D with paths (0: the paths_budget= option) */
    hs_dump_format format;      /* dump: format= */
    hs_report_options report;   /* top: n=, by=, width=, stack= */
    char reply[HS_PATH_MAX];    /* reply=: "" when not given */
    char out[HS_PATH_MAX];      /* out=: "" when not given */
    char paths_out[HS_PATH_MAX]; /* paths_out=: "" when not given */
    bool gc;                    /* dump, top: gc=1, force a full collection first */
    hs_options options; /* the running agent's options with the command's items applied */
} hs_command;

/* Parses text against the agent's current options. Returns 0, or -1 with one line in err:
 *   bad command 'TEXT': <why>; accepted: <the commands and their options>
 * cmd is written only on success. */
int hs_command_parse(const char *text, const hs_options *current, hs_command *cmd, char *err,
                     size_t errlen);

/* Whether text starts with a command word (dump, start, stop, status, help, top, paths)
 * followed by ',' or its end: a first attach given a command while the agent is not
 * loaded is not an option string. */
bool hs_command_is_command(const char *text);

/* The value of the first `key=` item of text (comma-separated) into out; false when
 * there is none or it does not fit. */
bool hs_command_find_item(const char *text, const char *key, char *out, size_t len);

/* text without its `key=` items, into out (for loading with reply=). false when it does
 * not fit. */
bool hs_command_drop_item(const char *text, const char *key, char *out, size_t len);

/* The commands and what they take, one per line, for `help`. Returns the length needed. */
size_t hs_command_help(char *buf, size_t len);

/* One row of the command table, as `help`, the error lines and the reference read it. */
typedef struct {
    const char *word;        /* "dump" */
    const char *usage;       /* "dump[,file=PATTERN]..." (reply=PATH not repeated) */
    const char *description; /* one paragraph */
} hs_command_info;

/* The commands, in the help's order: i from 0 while it returns true. */
bool hs_command_describe(size_t i, hs_command_info *out);

#endif
