/* command.c: parsing the commands of a running agent (see command.h).
 *
 * A command is a word, then key=value items as in the startup options. Each command has
 * the keys it allows; the items themselves are parsed by the option table over a copy of
 * the running options, so "start,interval=64k" accepts what interval= accepts at startup
 * and fails with the same reason. */
#include "control/command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    const char *word;
    hs_command_kind kind;
    const char *keys[8]; /* the keys it allows besides reply=, NULL-terminated */
    const char *usage;
    const char *description;
} command_row;

static const command_row command_table[] = {
    {"dump", HS_CMD_DUMP, {"file", "paths", "budget", "format", "out", "paths_out", "gc", NULL},
     "dump[,file=PATTERN][,paths=N[,budget=D]][,format=F][,out=PATH][,paths_out=PATH][,gc=1]",
     "write a profile now (of the whole run so far); file= as at startup; paths=N (1-64) also "
     "writes the reference chains from GC roots to the N largest in-use sites (-paths file), "
     "each pause of that walk within budget= (10ms-60s; default paths_budget=, 1s); "
     "format=pprof|html|collapsed|text for this dump (text: the report of top); out=/paths_out= "
     "into existing files instead; gc=1 first forces a full collection (stops the application "
     "like System.gc()) so that every in-use sample is judged"},
    {"start", HS_CMD_START, {"interval", "log", "rate", "http", "http_token", NULL},
     "start[,interval=SIZE][,log=LEVEL][,rate=N/s][,http=[HOST:]PORT[,http_token=@FILE]]",
     "turn sampling on again after stop, optionally at another interval or rate cap, and the "
     "HTTP endpoint of http= (if any); http= (as at startup) opens the endpoint, also while "
     "sampling runs"},
    {"stop", HS_CMD_STOP, {NULL}, "stop",
     "turn sampling off, release every tracked weak reference and close the HTTP endpoint"},
    {"status", HS_CMD_STATUS, {"file", NULL}, "status[,file=PATTERN]",
     "print the agent's state, one fact per line (to the JVM's stdout, or to file=)"},
    {"top", HS_CMD_TOP, {"n", "by", "width", "stack", "gc", NULL},
     "top[,n=N][,by=inuse|alloc|growth][,width=COLS][,stack=true][,gc=1]",
     "print the report: the N (1-1000, default 20) sites with the most in-use bytes (or "
     "allocated, or growing), WIDTH 40-1000 columns (default 100); stack=true adds each "
     "site's whole stack; gc=1 first forces a full collection, as dump,gc=1"},
    {"paths", HS_CMD_PATHS, {"n", "budget", "out", NULL}, "paths[,n=N][,budget=D][,out=PATH]",
     "print the reference chains from GC roots to the N (1-64, default 5) largest in-use "
     "sites (a heap walk; each stop-the-world pause within budget=, default paths_budget=); "
     "out= also gets them as pprof"},
    {"help", HS_CMD_HELP, {NULL}, "help", "print this list"},
};

static const char ACCEPTED[] =
    "dump[,file=PATTERN][,paths=N[,budget=D]][,format=F][,out=PATH][,paths_out=PATH][,gc=1], "
    "start[,interval=SIZE][,log=LEVEL][,rate=N/s][,http=[HOST:]PORT[,http_token=@FILE]], stop, "
    "status[,file=PATTERN], top[,n=N][,by=inuse|alloc|growth][,width=COLS][,stack=true][,gc=1], "
    "paths[,n=N][,budget=D][,out=PATH], help; every command also takes reply=PATH";

static int fail(char *err, size_t errlen, const char *text, const char *why) {
    snprintf(err, errlen, "bad command '%.200s': %s; accepted: %s", text, why, ACCEPTED);
    return -1;
}

static const command_row *find_command(const char *word, size_t len) {
    for (size_t i = 0; i < COUNT_OF(command_table); i++)
        if (strlen(command_table[i].word) == len && memcmp(command_table[i].word, word, len) == 0)
            return &command_table[i];
    return NULL;
}

static bool key_allowed(const command_row *row, const char *key, size_t len) {
    if (len == 5 && memcmp(key, "reply", 5) == 0) return true;
    for (const char *const *k = row->keys; *k; k++)
        if (strlen(*k) == len && memcmp(*k, key, len) == 0) return true;
    return false;
}

/* True when the items (comma-separated) name key; items are known to be well-formed. */
static bool items_have_key(const char *items, const char *key) {
    size_t key_len = strlen(key);
    for (const char *p = items; *p;) {
        size_t item_len = strcspn(p, ",");
        if (item_len > key_len && memcmp(p, key, key_len) == 0 && p[key_len] == '=') return true;
        p += item_len + (p[item_len] == ',');
    }
    return false;
}

/* Checks every item's key against the command; writes why on failure. */
static int check_keys(const command_row *row, const char *items, char *why, size_t whylen) {
    for (const char *p = items; *p;) {
        size_t item_len = strcspn(p, ",");
        size_t key_len = strcspn(p, ",=");
        if (item_len == 0) {
            snprintf(why, whylen, "empty item");
            return -1;
        }
        if (!key_allowed(row, p, key_len)) {
            snprintf(why, whylen, "'%.*s' cannot be given to %s%s", (int)(key_len > 64 ? 64 : key_len),
                     p, row->word, row->keys[0] ? "" : " (it takes nothing besides reply=)");
            return -1;
        }
        p += item_len + (p[item_len] == ',');
    }
    return 0;
}

/* --- the items only commands take (the others go to the option table) --------------- */

/* A whole number from min to max, or -1. */
static long whole_number(const char *value, long min, long max) {
    char *end = NULL;
    if (*value < '0' || *value > '9' || strlen(value) > 9) return -1;
    long n = strtol(value, &end, 10);
    return *end == '\0' && n >= min && n <= max ? n : -1;
}

static int choose(const char *value, const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(value, names[i]) == 0) return (int)i;
    return -1;
}

static int parse_n(const char *value, hs_command *cmd, char *why, size_t whylen) {
    bool rows = cmd->kind == HS_CMD_TOP;
    long max = rows ? HS_REPORT_ROWS_MAX : HS_COMMAND_MAX_PATHS;
    long n = whole_number(value, 1, max);
    if (n < 0) {
        snprintf(why, whylen, "n=%.32s: not a number of %s from 1 to %ld", value,
                 rows ? "rows" : "sites", max);
        return -1;
    }
    if (rows) cmd->report.rows = (unsigned)n;
    else cmd->paths = (unsigned)n;
    return 0;
}

static int parse_paths(const char *value, hs_command *cmd, char *why, size_t whylen) {
    long n = whole_number(value, 1, HS_COMMAND_MAX_PATHS);
    if (n < 0) {
        snprintf(why, whylen, "paths=%.32s: not a number of sites from 1 to %d", value,
                 HS_COMMAND_MAX_PATHS);
        return -1;
    }
    cmd->paths = (unsigned)n;
    return 0;
}

/* budget=D (with paths=N, or on paths): each pause of the retention walk. */
static int parse_budget(const char *value, hs_command *cmd, char *why, size_t whylen) {
    char problem[64];
    if (hs_parse_paths_budget(value, &cmd->paths_budget_ms, problem, sizeof problem) == 0)
        return 0;
    snprintf(why, whylen, "budget=%.32s: %s; accepted: %s", value, problem,
             HS_PATHS_BUDGET_ACCEPTED);
    return -1;
}

static int parse_width(const char *value, hs_command *cmd, char *why, size_t whylen) {
    long n = whole_number(value, HS_REPORT_WIDTH_MIN, HS_REPORT_WIDTH_MAX);
    if (n < 0) {
        snprintf(why, whylen, "width=%.32s: not a number of columns from %d to %d", value,
                 HS_REPORT_WIDTH_MIN, HS_REPORT_WIDTH_MAX);
        return -1;
    }
    cmd->report.width = (unsigned)n;
    return 0;
}

static int parse_by(const char *value, hs_command *cmd, char *why, size_t whylen) {
    static const char *const names[] = {"inuse", "alloc", "growth"};
    int i = choose(value, names, COUNT_OF(names));
    if (i < 0) {
        snprintf(why, whylen, "by=%.32s: not one of inuse, alloc, growth", value);
        return -1;
    }
    cmd->report.by = (hs_report_rank)i;
    return 0;
}

static int parse_stack(const char *value, hs_command *cmd, char *why, size_t whylen) {
    static const char *const names[] = {"false", "true"};
    int i = choose(value, names, COUNT_OF(names));
    if (i < 0) {
        snprintf(why, whylen, "stack=%.32s: not true or false", value);
        return -1;
    }
    cmd->report.stacks = i == 1;
    return 0;
}

/* gc=1 (dump, top): a full collection first, so every in-use sample is judged (liveness.h). */
static int parse_gc(const char *value, hs_command *cmd, char *why, size_t whylen) {
    if ((value[0] == '0' || value[0] == '1') && value[1] == '\0') {
        cmd->gc = value[0] == '1';
        return 0;
    }
    snprintf(why, whylen, "gc=%.32s: accepted: gc=1 (force a full collection first) or gc=0",
             value);
    return -1;
}

static int parse_format(const char *value, hs_command *cmd, char *why, size_t whylen) {
    static const char *const names[] = {"pprof", "collapsed", "html", "text"};
    int i = choose(value, names, COUNT_OF(names));
    if (i < 0) {
        snprintf(why, whylen, "format=%.32s: not one of pprof, html, collapsed, text", value);
        return -1;
    }
    cmd->format = (hs_dump_format)(HS_DUMP_PPROF + i);
    return 0;
}

/* reply=, out=, paths_out=: an absolute path (the file itself is checked when opened). */
static int parse_file_item(const char *key, const char *value, char *field, char *why,
                           size_t whylen) {
    if (value[0] != '/') {
        snprintf(why, whylen, "%s=%.64s: not an absolute path", key, value);
        return -1;
    }
    snprintf(field, HS_PATH_MAX, "%s", value); /* fits: values are < HS_PATH_MAX */
    return 0;
}

static int parse_reply(const char *value, hs_command *cmd, char *why, size_t whylen) {
    return parse_file_item("reply", value, cmd->reply, why, whylen);
}

static int parse_out(const char *value, hs_command *cmd, char *why, size_t whylen) {
    return parse_file_item("out", value, cmd->out, why, whylen);
}

static int parse_paths_out(const char *value, hs_command *cmd, char *why, size_t whylen) {
    return parse_file_item("paths_out", value, cmd->paths_out, why, whylen);
}

typedef struct {
    const char *key;
    int (*parse)(const char *value, hs_command *cmd, char *why, size_t whylen);
} command_item;

static const command_item command_items[] = {
    {"paths", parse_paths}, {"n", parse_n},         {"width", parse_width},
    {"by", parse_by},       {"stack", parse_stack}, {"format", parse_format},
    {"reply", parse_reply}, {"out", parse_out},     {"paths_out", parse_paths_out},
    {"budget", parse_budget}, {"gc", parse_gc},
};

static const command_item *find_item(const char *key, size_t len) {
    for (size_t i = 0; i < COUNT_OF(command_items); i++)
        if (strlen(command_items[i].key) == len && memcmp(command_items[i].key, key, len) == 0)
            return &command_items[i];
    return NULL;
}

/* Parses the command-only items into cmd and copies the others into rest (the items for
 * the option table). 0, or -1 with why. */
static int take_command_items(const char *items, char *rest, size_t restlen, hs_command *cmd,
                              char *why, size_t whylen) {
    size_t used = 0;
    bool seen[COUNT_OF(command_items)] = {false};
    rest[0] = '\0';
    for (const char *p = items; *p;) {
        size_t item_len = strcspn(p, ",");
        size_t key_len = strcspn(p, ",=");
        const command_item *item = find_item(p, key_len);
        if (item) {
            char value[HS_PATH_MAX];
            size_t value_len = item_len > key_len ? item_len - key_len - 1 : 0;
            if (item_len == key_len || value_len == 0 || value_len >= sizeof value) {
                snprintf(why, whylen, "%s=: %s", item->key,
                         value_len ? "too long" : "missing value");
                return -1;
            }
            if (seen[item - command_items]) {
                snprintf(why, whylen, "%s= given twice", item->key);
                return -1;
            }
            seen[item - command_items] = true;
            memcpy(value, p + key_len + 1, value_len);
            value[value_len] = '\0';
            if (item->parse(value, cmd, why, whylen) != 0) return -1;
        } else if (used + item_len + 2 <= restlen) {
            used += (size_t)snprintf(rest + used, restlen - used, "%s%.*s", used ? "," : "",
                                     (int)item_len, p);
        }
        p += item_len + (p[item_len] == ',');
    }
    return 0;
}

/* The dump format that writes what the startup format= writes. */
static hs_dump_format startup_dump_format(const hs_options *current) {
    switch (current->format) {
    case HS_FORMAT_COLLAPSED: return HS_DUMP_COLLAPSED;
    case HS_FORMAT_HTML: return HS_DUMP_HTML;
    case HS_FORMAT_PPROF: break;
    }
    return HS_DUMP_PPROF;
}

/* Items that only make sense together. */
static int check_together(const hs_command *cmd, bool has_file, const hs_options *current,
                          char *why, size_t whylen) {
    if (cmd->kind != HS_CMD_DUMP) return 0;
    if (cmd->paths_budget_ms && !cmd->paths) {
        snprintf(why, whylen, "budget= bounds the retention walk: it needs paths=N");
        return -1;
    }
    static const char *const format_names[] = {[HS_DUMP_PPROF] = "pprof",
                                               [HS_DUMP_COLLAPSED] = "collapsed",
                                               [HS_DUMP_HTML] = "html", [HS_DUMP_TEXT] = "text"};
    if (cmd->format != HS_DUMP_STARTUP_FORMAT && cmd->format != startup_dump_format(current) &&
        !has_file && !cmd->out[0]) {
        snprintf(why, whylen, "format=%s needs file= or out= (the startup file= names %s files)",
                 format_names[cmd->format], format_names[startup_dump_format(current)]);
        return -1;
    }
    if (cmd->paths_out[0] && !cmd->paths) {
        snprintf(why, whylen, "paths_out= needs paths=N");
        return -1;
    }
    if (cmd->out[0] && cmd->paths && !cmd->paths_out[0]) {
        snprintf(why, whylen, "paths=N with out= needs paths_out= (the paths cannot go beside "
                              "a file named by out=)");
        return -1;
    }
    return 0;
}

int hs_command_parse(const char *text, const hs_options *current, hs_command *cmd, char *err,
                     size_t errlen) {
    if (!text || !*text) return fail(err, errlen, "", "no command given");
    size_t word_len = strcspn(text, ",");
    const command_row *row = find_command(text, word_len);
    if (!row) return fail(err, errlen, text, "unknown command");
    const char *items = text[word_len] == ',' ? text + word_len + 1 : "";
    if (text[word_len] == ',' && !*items) return fail(err, errlen, text, "empty item");
    char why[HS_PATH_MAX + 256];
    if (check_keys(row, items, why, sizeof why) != 0) return fail(err, errlen, text, why);

    hs_command parsed;
    memset(&parsed, 0, sizeof parsed);
    parsed.kind = row->kind;
    hs_report_options_defaults(&parsed.report);
    if (row->kind == HS_CMD_PATHS) parsed.paths = HS_PATHS_DEFAULT;
    parsed.options = *current;
    parsed.options.help = false;
    char rest[HS_PATH_MAX + 256];
    if (strlen(items) >= sizeof rest) return fail(err, errlen, text, "too long");
    if (take_command_items(items, rest, sizeof rest, &parsed, why, sizeof why) != 0 ||
        check_together(&parsed, items_have_key(items, "file"), current, why, sizeof why) != 0)
        return fail(err, errlen, text, why);
    if (*rest && hs_options_parse(rest, &parsed.options, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why); /* the option table's own message names the item */
        return -1;
    }
    parsed.has_file = items_have_key(items, "file");
    parsed.has_interval = items_have_key(items, "interval");
    parsed.has_rate = items_have_key(items, "rate");
    parsed.has_http = items_have_key(items, "http") || items_have_key(items, "http_token");
    *cmd = parsed;
    return 0;
}

bool hs_command_is_command(const char *text) {
    if (!text) return false;
    size_t word_len = strcspn(text, ",");
    return word_len > 0 && find_command(text, word_len) != NULL;
}

bool hs_command_find_item(const char *text, const char *key, char *out, size_t len) {
    size_t key_len = strlen(key);
    for (const char *p = text ? text : ""; *p;) {
        size_t item_len = strcspn(p, ",");
        if (item_len > key_len && memcmp(p, key, key_len) == 0 && p[key_len] == '=') {
            size_t value_len = item_len - key_len - 1;
            if (value_len >= len) return false;
            memcpy(out, p + key_len + 1, value_len);
            out[value_len] = '\0';
            return true;
        }
        p += item_len + (p[item_len] == ',');
    }
    return false;
}

bool hs_command_drop_item(const char *text, const char *key, char *out, size_t len) {
    size_t key_len = strlen(key), used = 0;
    if (len == 0) return false;
    out[0] = '\0';
    for (const char *p = text ? text : ""; *p;) {
        size_t item_len = strcspn(p, ",");
        bool drop = item_len > key_len && memcmp(p, key, key_len) == 0 && p[key_len] == '=';
        if (!drop) {
            if (used + item_len + 2 > len) return false;
            used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? "," : "",
                                     (int)item_len, p);
        }
        p += item_len + (p[item_len] == ',');
    }
    return true;
}

bool hs_command_describe(size_t i, hs_command_info *out) {
    if (i >= COUNT_OF(command_table)) return false;
    *out = (hs_command_info){.word = command_table[i].word, .usage = command_table[i].usage,
                             .description = command_table[i].description};
    return true;
}

size_t hs_command_help(char *buf, size_t len) {
    size_t need = 0;
    int n = snprintf(buf, len, "heapsampler commands (jcmd <pid> JVMTI.agent_load <library> "
                               "'\"<command>\"'):\n");
    if (n > 0) need += (size_t)n;
    for (size_t i = 0; i < COUNT_OF(command_table); i++) {
        n = snprintf(need < len ? buf + need : NULL, need < len ? len - need : 0, "  %s\n      %s\n",
                     command_table[i].usage, command_table[i].description);
        if (n > 0) need += (size_t)n;
    }
    return need;
}
