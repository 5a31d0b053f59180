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
    F_HTTP = 1 << 9, F_HTTP_TOKEN = 1 << 10, F_GC = 1 << 11,
};

typedef struct {
    const char *name;
    cli_verb verb;
    bool needs_pid;
    bool takes_options; /* positional agent options after the pid */
    unsigned flags;
} verb_row;

static const verb_row verbs[] = {
    {"list", CLI_VERB_LIST, false, false, F_TIMEOUT},
    {"load", CLI_VERB_LOAD, true, true, F_TIMEOUT | F_LIB | F_HTTP | F_HTTP_TOKEN},
    {"status", CLI_VERB_STATUS, true, false, F_TIMEOUT},
    {"dump", CLI_VERB_DUMP, true, false, F_OUT | F_PATHS | F_FORCE | F_TIMEOUT | F_GC},
    {"top", CLI_VERB_TOP, true, false, F_N | F_BY | F_EVERY | F_STACK | F_TIMEOUT | F_GC},
    {"start", CLI_VERB_START, true, true, F_TIMEOUT | F_HTTP | F_HTTP_TOKEN},
    {"stop", CLI_VERB_STOP, true, false, F_TIMEOUT},
    {"paths", CLI_VERB_PATHS, true, false, F_N | F_OUT | F_FORCE | F_TIMEOUT},
    {"help", CLI_VERB_HELP, false, false, 0},
    {"--help", CLI_VERB_HELP, false, false, 0},
    {"-h", CLI_VERB_HELP, false, false, 0},
    {"--version", CLI_VERB_VERSION, false, false, 0},
    {"version", CLI_VERB_VERSION, false, false, 0},
};

typedef struct {
    const char *name;  /* long form */
    const char *alias; /* short form or NULL */
    unsigned flag;
    bool has_value;
} flag_row;

static const flag_row flags[] = {
    {"--output", "-o", F_OUT, true},   {"--paths", NULL, F_PATHS, true},
    {"--top", "-n", F_N, true},        {"--by", NULL, F_BY, true},
    {"--every", NULL, F_EVERY, true},  {"--stack", NULL, F_STACK, false},
    {"--force", "-f", F_FORCE, false}, {"--timeout", NULL, F_TIMEOUT, true},
    {"--lib", NULL, F_LIB, true},      {"--http", NULL, F_HTTP, true},
    {"--http-token", NULL, F_HTTP_TOKEN, true}, {"--gc", NULL, F_GC, false},
};

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
        if (strcmp(value, "inuse") && strcmp(value, "alloc") && strcmp(value, "growth"))
            return fail(err, errlen, "bad --by '%s': accepted: inuse, alloc, growth", value);
        out->by = value;
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
    if (verb->verb == CLI_VERB_DUMP && !out->out_file)
        return fail(err, errlen, "dump needs -o FILE (%s)", CLI_ACCEPTED_EXTENSIONS);
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
    return 0;
}

int cli_parse_args(int argc, char *const argv[], cli_args *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    out->timeout_ms = CLI_DEFAULT_TIMEOUT_MS;
    if (argc < 2) return fail(err, errlen, "no verb given; try: heapsampler help");
    const verb_row *verb = find_verb(argv[1]);
    if (!verb)
        return fail(err, errlen, "unknown verb '%s'; verbs: list, load, status, dump, top, start, "
                                 "stop, paths, help, --version", argv[1]);
    out->verb = verb->verb;
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
