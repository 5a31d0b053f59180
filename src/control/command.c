/* command.c: parsing the commands of a running agent (see command.h).
 *
 * A command is a word, then key=value items as in the startup options. Each command has
 * the keys it allows; the items themselves are parsed by the option table over a copy of
 * the running options, so "start,interval=64k" accepts what interval= accepts at startup
 * and fails with the same reason. */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    const char *word;
    hs_command_kind kind;
    const char *keys[4]; /* the option keys it allows, NULL-terminated */
    const char *usage;
    const char *description;
} command_row;

static const command_row command_table[] = {
    {"dump", HS_CMD_DUMP, {"file", "paths", "gc", NULL}, "dump[,file=PATTERN][,paths=N][,gc=1]",
     "write a profile now (of the whole run so far); file= as at startup; paths=N (1-64) also "
     "writes the reference chains from GC roots to the N largest in-use sites (-paths file); "
     "gc=1 first forces a full collection (stops the application like System.gc()) so that "
     "every in-use sample is judged"},
    {"start", HS_CMD_START, {"interval", "log", "rate", NULL},
     "start[,interval=SIZE][,log=LEVEL][,rate=N/s]",
     "turn sampling on again after stop, optionally at another interval or rate cap"},
    {"stop", HS_CMD_STOP, {NULL}, "stop",
     "turn sampling off and release every tracked weak reference"},
    {"status", HS_CMD_STATUS, {"file", NULL}, "status[,file=PATTERN]",
     "print the agent's state, one fact per line (to the JVM's stdout, or to file=)"},
    {"help", HS_CMD_HELP, {NULL}, "help", "print this list"},
};

static const char ACCEPTED[] =
    "dump[,file=PATTERN][,paths=N][,gc=1], start[,interval=SIZE][,log=LEVEL][,rate=N/s], stop, "
    "status[,file=PATTERN], help";

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
                     p, row->word, row->keys[0] ? "" : " (it takes nothing)");
            return -1;
        }
        p += item_len + (p[item_len] == ',');
    }
    return 0;
}

/* gc=1 or gc=0. 0, or -1 with why. */
static int take_gc(const char *value, size_t len, bool *gc, char *why, size_t whylen) {
    if (len == 1 && (value[0] == '0' || value[0] == '1')) {
        *gc = value[0] == '1';
        return 0;
    }
    snprintf(why, whylen, "gc=%.*s: accepted: gc=1 (force a full collection first) or gc=0",
             (int)(len > 32 ? 32 : len), value);
    return -1;
}

/* Takes the command-only items paths=N and gc=0|1 out of items (into rest, the items for
 * the option table) and parses them. 0, or -1 with why. */
static int take_paths(const char *items, char *rest, size_t restlen, unsigned *paths, bool *gc,
                      char *why, size_t whylen) {
    size_t used = 0;
    rest[0] = '\0';
    for (const char *p = items; *p;) {
        size_t item_len = strcspn(p, ",");
        if (item_len >= 3 && memcmp(p, "gc=", 3) == 0) {
            if (take_gc(p + 3, item_len - 3, gc, why, whylen) != 0) return -1;
        } else if (item_len > 6 && memcmp(p, "paths=", 6) == 0) {
            char *end = NULL;
            unsigned long n = strtoul(p + 6, &end, 10);
            if (p[6] < '0' || p[6] > '9' || end != p + item_len || n < 1 || n > HS_COMMAND_MAX_PATHS) {
                snprintf(why, whylen, "paths=%.*s: not a number of sites from 1 to %d",
                         (int)(item_len - 6 > 32 ? 32 : item_len - 6), p + 6, HS_COMMAND_MAX_PATHS);
                return -1;
            }
            *paths = (unsigned)n;
        } else if (used + item_len + 2 <= restlen) {
            used += (size_t)snprintf(rest + used, restlen - used, "%s%.*s", used ? "," : "",
                                     (int)item_len, p);
        }
        p += item_len + (p[item_len] == ',');
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
    parsed.options = *current;
    parsed.options.help = false;
    char rest[HS_PATH_MAX + 256];
    if (strlen(items) >= sizeof rest) return fail(err, errlen, text, "too long");
    if (take_paths(items, rest, sizeof rest, &parsed.paths, &parsed.gc, why, sizeof why) != 0)
        return fail(err, errlen, text, why);
    if (*rest && hs_options_parse(rest, &parsed.options, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why); /* the option table's own message names the item */
        return -1;
    }
    parsed.has_file = items_have_key(items, "file");
    parsed.has_interval = items_have_key(items, "interval");
    parsed.has_rate = items_have_key(items, "rate");
    *cmd = parsed;
    return 0;
}

size_t hs_command_help(char *buf, size_t len) {
    size_t need = 0;
    int n = snprintf(buf, len, "heapsampler commands (jcmd <pid> JVMTI.agent_load <library> "
                               "'\"<command>\"'):\n");
    if (n > 0) need += (size_t)n;
    for (size_t i = 0; i < COUNT_OF(command_table); i++) {
        n = snprintf(need < len ? buf + need : NULL, need < len ? len - need : 0, "  %-36s %s\n",
                     command_table[i].usage, command_table[i].description);
        if (n > 0) need += (size_t)n;
    }
    return need;
}
