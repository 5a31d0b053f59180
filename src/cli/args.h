/* args.h: the heapsampler command line, parsed into one struct (pure: no I/O).
 *
 * `heapsampler VERB [PID] [OPTIONS] [FLAGS]`: each verb has the flags it accepts; flags
 * may come before or after the pid. Parsing checks what can be checked without the
 * target (numbers, ranges, the output file's extension); the rest is the verbs' work.
 * load/start --http [HOST:]PORT and --http-token FILE become the agent options
 * http=[HOST:]PORT and http_token=@FILE (FILE made absolute: the JVM reads it). */
#ifndef HS_CLI_ARGS_H
#define HS_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    CLI_VERB_LIST,
    CLI_VERB_LOAD,
    CLI_VERB_STATUS,
    CLI_VERB_DUMP,
    CLI_VERB_TOP,
    CLI_VERB_START,
    CLI_VERB_STOP,
    CLI_VERB_PATHS,
    CLI_VERB_PROFILE,
    CLI_VERB_HELP,
    CLI_VERB_VERSION,
} cli_verb;

typedef struct {
    cli_verb verb;
    int pid;                 /* 0 when the verb takes none */
    char options[1024];      /* load/start: the agent options, comma-joined */
    const char *out_file;    /* -o FILE */
    const char *format;      /* dump: pprof|html|collapsed|text, from out_file's extension */
    int paths;               /* dump --paths N (0: none) */
    int n;                   /* top/paths -n N */
    const char *by;          /* top --by inuse|alloc|growth (NULL: the agent's default) */
    long every_ms;           /* top --every (0: once) */
    bool stack;              /* top --stack: whole stacks */
    bool force;              /* replace an existing -o FILE */
    long timeout_ms;         /* --timeout (default 10 s) */
    const char *lib;         /* --lib PATH */
    bool gc;                 /* dump/top --gc: a full collection first */
    bool json;               /* top/status --json */
    bool by_class;           /* top --by class */
    long duration_ms;        /* profile -d (default CLI_PROFILE_DEFAULT_MS) */
    const char *help_verb;   /* help VERB, VERB --help: that verb's help (NULL: the summary) */
} cli_args;

#define CLI_PROFILE_DEFAULT_MS 30000L

/* One verb as `heapsampler help` lists it. */
typedef struct {
    const char *name;
    const char *usage; /* after "heapsampler " */
    const char *help;  /* what it does */
} cli_verb_info;

/* The i-th verb of the help (0, 1, ...); false past the last. */
bool cli_verb_describe(size_t i, cli_verb_info *out);
/* A verb's own help (usage, what it does, its flags) into buf, like snprintf; 0 for a name
 * that is not a verb. */
size_t cli_verb_help(const char *name, char *buf, size_t len);

#define CLI_DEFAULT_TIMEOUT_MS 10000L
#define CLI_TOP_DEFAULT_N 20
#define CLI_TOP_MAX_N 10000
#define CLI_PATHS_DEFAULT_N 5
#define CLI_PATHS_MAX_N 64

/* Parses argv[1..argc-1]. Returns 0, or -1 with the reason in err (exit code 1). */
int cli_parse_args(int argc, char *const argv[], cli_args *out, char *err, size_t errlen);

/* Parses a duration: "10s", "500ms", "2m", or plain seconds. Returns milliseconds or -1. */
long cli_parse_duration_ms(const char *text);

/* The report's width limits (the agent's width=: 40 to 1000 columns, 0 for no limit). */
#define CLI_WIDTH_MIN 40
#define CLI_WIDTH_MAX 1000
/* A terminal's width within those limits. */
int cli_clamp_width(long columns);
/* The width COLUMNS asks for (clamped), or 0 (no limit) when it is unset or not a number. */
int cli_columns_width(const char *columns);

/* The dump format named by a file's extension, or NULL (see CLI_ACCEPTED_EXTENSIONS). */
const char *cli_format_for_file(const char *path);
#define CLI_ACCEPTED_EXTENSIONS ".pb.gz or .pb (pprof), .html (flame graph), .collapsed, .txt (report)"

/* The file beside FILE where `dump --paths` puts the retention paths: heap.pb.gz ->
 * heap-paths.pb.gz. Returns 0, or -1 when out is too small. */
int cli_paths_file_name(const char *file, char *out, size_t len);

#endif
