/* args.c: parsing the heapsampler command line (see args.h). */
#include "args.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    F_OUT = 1 << 0, F_PATHS = 1 << 1, F_N = 1 << 2, F_BY = 1 << 3, F_EVERY = 1 << 4,
    F_STACK = 1 << 5, F_FORCE = 1 << 6, F_TIMEOUT = 1 << 7, F_LIB = 1 << 8,
    F_HTTP = 1 << 9, F_HTTP_TOKEN = 1 << 10, F_GC = 1 << 11, F_JSON = 1 << 12,
    F_DURATION = 1 << 13, F_HELP = 1 << 14,
};

#define F_ALWAYS (F_TIMEOUT | F_HELP)

typedef struct {
    const char *name;
    cli_verb verb;
    bool needs_pid;
    bool takes_options; /* positional agent options after the pid */
    unsigned flags;
    const char *usage;  /* after "heapsampler " */
    const char *help;   /* what it does, lines of at most 72 columns */
} verb_row;

/* The verbs, in the order `heapsampler help` lists them (test_docs checks each usage is in
 * heapsampler(1)). */
static const verb_row verbs[] = {
    {"list", CLI_VERB_LIST, false, false, F_ALWAYS, "list",
     "JVMs you may attach to: pid, main class or jar, JDK version, heapsampler\n"
     "loaded and its state"},
    {"load", CLI_VERB_LOAD, true, true, F_ALWAYS | F_LIB | F_HTTP | F_HTTP_TOKEN,
     "load PID [OPTIONS] [--http [HOST:]PORT [--http-token FILE]]",
     "load the agent with startup options (interval=64k,dump_period=1m...); prints\n"
     "the effective options and where the exit profile goes (without file=: the\n"
     "JVM's temp directory, java.io.tmpdir, never its working directory)"},
    {"status", CLI_VERB_STATUS, true, false, F_ALWAYS | F_JSON, "status PID [--json]",
     "the agent's status facts (--json: one JSON object)"},
    {"dump", CLI_VERB_DUMP, true, false, F_ALWAYS | F_OUT | F_PATHS | F_FORCE | F_GC,
     "dump PID -o FILE [--paths N] [--gc] [--force]",
     "write a profile now; the format follows FILE: .pb.gz/.pb pprof, .html flame\n"
     "graph, .collapsed, .txt the top report (never cut); --paths N also writes the\n"
     "retention paths of the N largest sites beside it (FILE-paths.pb.gz); --gc\n"
     "forces a full collection first (a stop-the-world pause) so that every in-use\n"
     "object is judged"},
    {"profile", CLI_VERB_PROFILE, true, true, F_ALWAYS | F_OUT | F_DURATION | F_FORCE | F_LIB,
     "profile PID [OPTIONS] [-d 30s] -o FILE [--force]",
     "one profile of the next DURATION: loads the agent if needed (with OPTIONS),\n"
     "collects, writes FILE (format from its extension, as dump), then puts the JVM\n"
     "back as it was: sampling stopped if this command loaded or started it, left\n"
     "running otherwise (the file then holds what was allocated during DURATION)"},
    {"top", CLI_VERB_TOP, true, false, F_ALWAYS | F_N | F_BY | F_EVERY | F_STACK | F_GC | F_JSON,
     "top PID [-n 20] [--by inuse|alloc|growth|class] [--stack] [--gc] [--every 10s] [--json]",
     "what holds the heap now; --by class: one row per allocated class (like\n"
     "GC.class_histogram, of the sampled allocations, with the unattributed rest);\n"
     "--every refreshes until Ctrl-C; --stack prints whole stacks; --json: one JSON\n"
     "object. Cut to the terminal's width (COLUMNS when not a terminal; a file or a\n"
     "pipe without COLUMNS gets whole names)"},
    {"start", CLI_VERB_START, true, true, F_ALWAYS | F_HTTP | F_HTTP_TOKEN,
     "start PID [interval=SIZE,rate=N/s,log=LEVEL] [--http [HOST:]PORT [--http-token FILE]]",
     "sampling on again (after stop); while sampling runs, changes interval=, rate=,\n"
     "log= in place, keeping every tracked object; --http opens the /debug/pprof\n"
     "endpoint (PORT 0: a free port, printed)"},
    {"stop", CLI_VERB_STOP, true, false, F_ALWAYS, "stop PID",
     "sampling off, tracked objects released, the HTTP endpoint closed"},
    {"paths", CLI_VERB_PATHS, true, false, F_ALWAYS | F_N | F_OUT | F_FORCE,
     "paths PID [-n 5] [-o FILE.pb.gz] [--force]",
     "reference chains from GC roots to the N largest in-use sites (and as pprof\n"
     "with -o); identical chains are printed once with their count; each walk stops\n"
     "the application (a pause within paths_budget=, 1 s by default)"},
    {"help", CLI_VERB_HELP, false, false, 0, "help [VERB] | --version",
     "this summary, or one verb's usage and flags (also: heapsampler VERB --help);\n"
     "the command's version"},
    {"--help", CLI_VERB_HELP, false, false, 0, NULL, NULL},
    {"-h", CLI_VERB_HELP, false, false, 0, NULL, NULL},
    {"--version", CLI_VERB_VERSION, false, false, 0, NULL, NULL},
    {"version", CLI_VERB_VERSION, false, false, 0, NULL, NULL},
};

typedef struct {
    const char *name;  /* long form */
    const char *alias; /* short form or NULL */
    unsigned flag;
    bool has_value;
    const char *help;  /* "--by X  ..." line of a verb's help */
} flag_row;

static const flag_row flags[] = {
    {"--output", "-o", F_OUT, true, "-o FILE         the file written (its extension names the format)"},
    {"--paths", NULL, F_PATHS, true, "--paths N       also the retention paths of the N largest sites"},
    {"--top", "-n", F_N, true, "-n N            rows (sites) shown"},
    {"--by", NULL, F_BY, true, "--by ORDER      inuse, alloc, growth, or class (a row per class)"},
    {"--every", NULL, F_EVERY, true, "--every PERIOD  refresh until Ctrl-C (10s, 500ms...)"},
    {"--stack", NULL, F_STACK, false, "--stack         each site's whole stack"},
    {"--force", "-f", F_FORCE, false, "--force         replace an existing FILE"},
    {"--timeout", NULL, F_TIMEOUT, true, "--timeout D     give up after D (default 10s)"},
    {"--lib", NULL, F_LIB, true, "--lib PATH      the agent library to load"},
    {"--http", NULL, F_HTTP, true, "--http [H:]PORT serve /debug/pprof/ (127.0.0.1 unless HOST)"},
    {"--http-token", NULL, F_HTTP_TOKEN, true, "--http-token F  a file holding the bearer token"},
    {"--gc", NULL, F_GC, false, "--gc            a full collection first (stops the application)"},
    {"--json", NULL, F_JSON, false, "--json          one JSON object (schema: man heapsampler)"},
    {"--duration", "-d", F_DURATION, true, "-d DURATION     how long to collect (default 30s)"},
    {"--help", "-h", F_HELP, false, "--help          this help"},
};

bool cli_verb_describe(size_t i, cli_verb_info *out) {
    for (size_t k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
        if (!verbs[k].usage) continue;
        if (i-- > 0) continue;
        *out = (cli_verb_info){.name = verbs[k].name, .usage = verbs[k].usage, .help = verbs[k].help};
        return true;
    }
    return false;
}

size_t cli_verb_help(const char *name, char *buf, size_t len) {
    size_t k = 0;
    while (k < sizeof verbs / sizeof verbs[0] && (strcmp(verbs[k].name, name) || !verbs[k].usage)) k++;
    if (k == sizeof verbs / sizeof verbs[0]) return 0;
    const verb_row *v = &verbs[k];
    size_t used = 0;
    int n = snprintf(buf, len, "usage: heapsampler %s\n\n%s\n", v->usage, v->help);
    used = n > 0 ? (size_t)n : 0;
    bool any = false;
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        if (!(v->flags & flags[f].flag)) continue;
        n = snprintf(used < len ? buf + used : NULL, used < len ? len - used : 0, "%s  %s\n",
                     any ? "" : "\nflags:\n", flags[f].help);
        if (n > 0) used += (size_t)n;
        any = true;
    }
    return used;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

const char *cli_format_for_file(const char *path) {
    if (ends_with(path, ".pb.gz") || ends_with(path, ".pb")) return "pprof";
    if (ends_with(path, ".html")) return "html";
    if (ends_with(path, ".collapsed")) return "collapsed";
    if (ends_with(path, ".txt")) return "text";
    return NULL;
}

int cli_paths_file_name(const char *file, char *out, size_t len) {
    static const char *const exts[] = {".pb.gz", ".pb", ".html", ".collapsed", ".txt"};
    size_t stem = strlen(file);
    const char *ext = "";
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (ends_with(file, exts[i])) {
            ext = exts[i];
            stem -= strlen(ext);
            break;
        }
    int n = snprintf(out, len, "%.*s-paths%s", (int)stem, file, ext);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

long cli_parse_duration_ms(const char *text) {
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || !(v >= 0) || text[0] == '-' || text[0] == '+') return -1;
    double scale;
    if (*end == '\0' || strcmp(end, "s") == 0) scale = 1000;
    else if (strcmp(end, "ms") == 0) scale = 1;
    else if (strcmp(end, "m") == 0) scale = 60000;
    else if (strcmp(end, "h") == 0) scale = 3600000;
    else return -1;
    double ms = v * scale;
    return ms > (double)LONG_MAX / 2 ? -1 : (long)ms;
}

int cli_clamp_width(long columns) {
    return columns < CLI_WIDTH_MIN ? CLI_WIDTH_MIN : columns > CLI_WIDTH_MAX ? CLI_WIDTH_MAX : (int)columns;
}

int cli_columns_width(const char *columns) {
    char *end = NULL;
    if (!columns || *columns < '0' || *columns > '9') return 0;
    errno = 0;
    long n = strtol(columns, &end, 10);
    return errno || *end || n <= 0 ? 0 : cli_clamp_width(n);
}

/* A whole decimal number in [lo, hi], or -1. */
static long parse_number(const char *text, long lo, long hi) {
    if (!text || !*text) return -1;
    for (const char *p = text; *p; p++)
        if (*p < '0' || *p > '9') return -1;
    errno = 0;
    long v = strtol(text, NULL, 10);
    return errno || v < lo || v > hi ? -1 : v;
}

static const verb_row *find_verb(const char *name) {
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strcmp(verbs[i].name, name) == 0) return &verbs[i];
    return NULL;
}

/* Finds the flag named by arg ("--by", "--by=x", "-n"); *inline_value points after '='. */
static const flag_row *find_flag(const char *arg, const char **inline_value) {
    *inline_value = NULL;
    size_t len = strcspn(arg, "=");
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        const flag_row *f = &flags[i];
        bool long_match = strlen(f->name) == len && strncmp(arg, f->name, len) == 0;
        bool short_match = f->alias && strcmp(arg, f->alias) == 0;
        if (long_match || short_match) {
            if (long_match && arg[len] == '=') *inline_value = arg + len + 1;
            return f;
        }
    }
    return NULL;
}

static int append_options(cli_args *out, const char *text, char *err, size_t errlen) {
    if (strncmp(text, "reply=", 6) == 0 || strstr(text, ",reply="))
        return fail(err, errlen, "'reply=' is set by heapsampler itself; leave it out");
    size_t used = strlen(out->options);
    int n = snprintf(out->options + used, sizeof out->options - used, "%s%s", used ? "," : "", text);
    if (n < 0 || (size_t)n >= sizeof out->options - used)
        return fail(err, errlen, "the agent options are too long (at most %zu characters)",
                    sizeof out->options - 1);
    return 0;
}

/* --http-token FILE: http_token=@FILE with FILE absolute (the JVM, not this shell, reads it). */
static int append_token_option(cli_args *out, const char *file, char *err, size_t errlen) {
    char cwd[PATH_MAX], option[PATH_MAX + 32];
    if (!*file) return fail(err, errlen, "--http-token needs a file name");
    if (file[0] != '/' && !getcwd(cwd, sizeof cwd))
        return fail(err, errlen, "--http-token %s: cannot tell the current directory", file);
    int n = snprintf(option, sizeof option, "http_token=@%s%s%s", file[0] == '/' ? "" : cwd,
                     file[0] == '/' ? "" : "/", file);
    if (n < 0 || (size_t)n >= sizeof option) return fail(err, errlen, "--http-token: path too long");
    if (strchr(file, ','))
        return fail(err, errlen, "--http-token %s: the agent options cannot carry a ',' in a path",
                    file);
    return append_options(out, option, err, errlen);
}

static int apply_flag(const verb_row *verb, const flag_row *f, const char *value, cli_args *out,
                      char *err, size_t errlen) {
    long v;
    switch (f->flag) {
    case F_OUT: out->out_file = value; return 0;
    case F_PATHS:
        if ((v = parse_number(value, 1, CLI_PATHS_MAX_N)) < 0)
            return fail(err, errlen, "bad --paths '%s': a number of sites from 1 to %d", value,
                        CLI_PATHS_MAX_N);
        out->paths = (int)v;
        return 0;
    case F_N: {
        long max = verb->verb == CLI_VERB_PATHS ? CLI_PATHS_MAX_N : CLI_TOP_MAX_N;
        if ((v = parse_number(value, 1, max)) < 0)
            return fail(err, errlen, "bad -n '%s': a number of sites from 1 to %ld", value, max);
        out->n = (int)v;
        return 0;
    }
    case F_BY:
        if (strcmp(value, "inuse") && strcmp(value, "alloc") && strcmp(value, "growth") &&
            strcmp(value, "class"))
            return fail(err, errlen, "bad --by '%s': accepted: inuse, alloc, growth, class", value);
        out->by = value;
        out->by_class = strcmp(value, "class") == 0;
        return 0;
    case F_JSON: out->json = true; return 0;
    case F_HELP: return 0; /* seen before: cli_parse_args */
    case F_DURATION:
        if ((v = cli_parse_duration_ms(value)) < 1000)
            return fail(err, errlen, "bad -d '%s': a duration of at least 1s (30s, 2m...)", value);
        out->duration_ms = v;
        return 0;
    case F_EVERY:
        if ((v = cli_parse_duration_ms(value)) < 100)
            return fail(err, errlen, "bad --every '%s': a period of at least 100ms (10s, 500ms, 1m)",
                        value);
        out->every_ms = v;
        return 0;
    case F_STACK: out->stack = true; return 0;
    case F_FORCE: out->force = true; return 0;
    case F_TIMEOUT:
        if ((v = cli_parse_duration_ms(value)) < 1)
            return fail(err, errlen, "bad --timeout '%s': a duration such as 10s, 500ms, 2m", value);
        out->timeout_ms = v;
        return 0;
    case F_LIB: out->lib = value; return 0;
    case F_GC: out->gc = true; return 0;
    case F_HTTP: {
        char option[300];
        if (!*value || strchr(value, ',') || strlen(value) > 270)
            return fail(err, errlen, "bad --http '%s': [HOST:]PORT, e.g. 6060 or 127.0.0.1:0",
                        value);
        snprintf(option, sizeof option, "http=%s", value);
        return append_options(out, option, err, errlen);
    }
    case F_HTTP_TOKEN: return append_token_option(out, value, err, errlen);
    }
    return fail(err, errlen, "internal: unknown flag");
}

/* The checks that need every argument seen. */
static int check_complete(const verb_row *verb, cli_args *out, char *err, size_t errlen) {
    if (verb->needs_pid && out->pid == 0)
        return fail(err, errlen, "%s needs a pid: heapsampler %s PID (see heapsampler help)",
                    verb->name, verb->name);
    if ((verb->verb == CLI_VERB_DUMP || verb->verb == CLI_VERB_PROFILE) && !out->out_file)
        return fail(err, errlen, "%s needs -o FILE (%s)", verb->name, CLI_ACCEPTED_EXTENSIONS);
    if (out->json && out->every_ms)
        return fail(err, errlen, "--json answers once: leave out --every (or loop in the shell)");
    if (out->out_file) {
        if (!*out->out_file) return fail(err, errlen, "-o needs a file name");
        out->format = cli_format_for_file(out->out_file);
        if (!out->format)
            return fail(err, errlen, "cannot tell the format of '%s' from its extension; accepted: %s",
                        out->out_file, CLI_ACCEPTED_EXTENSIONS);
        if (verb->verb == CLI_VERB_PATHS && strcmp(out->format, "pprof") != 0)
            return fail(err, errlen, "paths -o writes pprof: name the file .pb.gz or .pb");
        if (out->paths && strcmp(out->format, "pprof") != 0)
            return fail(err, errlen, "--paths writes pprof beside a pprof dump: name the file .pb.gz");
    }
    if (verb->verb == CLI_VERB_TOP && out->n == 0) out->n = CLI_TOP_DEFAULT_N;
    if (verb->verb == CLI_VERB_PATHS && out->n == 0) out->n = CLI_PATHS_DEFAULT_N;
    if (verb->verb == CLI_VERB_PROFILE && out->duration_ms == 0) out->duration_ms = CLI_PROFILE_DEFAULT_MS;
    return 0;
}

#define VERB_NAMES "list, load, status, dump, profile, top, start, stop, paths, help, --version"

/* help [VERB]: the summary, or that verb's help. */
static int parse_help(int argc, char *const argv[], cli_args *out, char *err, size_t errlen) {
    if (argc > 3) return fail(err, errlen, "help takes at most one verb: heapsampler help VERB");
    if (argc < 3) return 0;
    const verb_row *v = find_verb(argv[2]);
    if (!v || !v->usage)
        return fail(err, errlen, "help: unknown verb '%s'; verbs: %s", argv[2], VERB_NAMES);
    out->help_verb = v->name;
    return 0;
}

int cli_parse_args(int argc, char *const argv[], cli_args *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    out->timeout_ms = CLI_DEFAULT_TIMEOUT_MS;
    if (argc < 2) return fail(err, errlen, "no verb given; try: heapsampler help");
    const verb_row *verb = find_verb(argv[1]);
    if (!verb)
        return fail(err, errlen, "unknown verb '%s'; verbs: %s", argv[1], VERB_NAMES);
    out->verb = verb->verb;
    if (verb->verb == CLI_VERB_HELP) return parse_help(argc, argv, out, err, errlen);
    for (int i = 2; i < argc; i++) /* VERB ... --help: that verb's help, whatever else */
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            out->verb = CLI_VERB_HELP;
            out->help_verb = verb->name;
            return 0;
        }
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        const flag_row *f = arg[0] == '-' && arg[1] ? find_flag(arg, &value) : NULL;
        if (f) {
            if (!(verb->flags & f->flag))
                return fail(err, errlen, "%s does not take %s (see heapsampler help)", verb->name, arg);
            if (f->has_value && !value) {
                if (i + 1 >= argc) return fail(err, errlen, "%s needs a value", arg);
                value = argv[++i];
            } else if (!f->has_value && value) {
                return fail(err, errlen, "%s takes no value", f->name);
            }
            if (apply_flag(verb, f, value, out, err, errlen) != 0) return -1;
        } else if (arg[0] == '-') {
            return fail(err, errlen, "unknown flag '%s' for %s (see heapsampler help)", arg, verb->name);
        } else if (verb->needs_pid && out->pid == 0) {
            long pid = parse_number(arg, 1, INT_MAX);
            if (pid < 0) return fail(err, errlen, "'%s' is not a process id (a positive number)", arg);
            out->pid = (int)pid;
        } else if (verb->takes_options) {
            if (append_options(out, arg, err, errlen) != 0) return -1;
        } else {
            return fail(err, errlen, "unexpected argument '%s' for %s (see heapsampler help)", arg,
                        verb->name);
        }
    }
    return check_complete(verb, out, err, errlen);
}
