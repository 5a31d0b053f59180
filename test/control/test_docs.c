/* test_docs.c: the documentation cannot drift from the code.
 *
 *  - every startup option the agent accepts (enumerated from the option table by
 *    hs_options_describe) has a section in docs/options.md, with the table's default; the
 *    help text and the "unknown option" error list the same keys and defaults;
 *  - every command a running agent accepts (enumerated by hs_command_describe) has a
 *    section there with its usage line, verbatim, and `help` lists the same usage lines;
 *  - every verb, flag and exit code that `heapsampler help` prints is in the man page's
 *    source, docs/heapsampler.1.md;
 *  - every relative link in README.md, CHANGELOG.md and the .md files of docs/ resolves:
 *    the file exists and its #anchor is a heading (GitHub's anchor rules) or an <a id>;
 *  - every hs_warn/hs_error line of the agent and every failure line of the command
 *    (src/cli/) has a row in docs/troubleshooting.md: the text before its first conversion.
 *
 * HS_SOURCE_DIR (the source tree) and HS_CLI_PATH (the built command) come from CMake. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "control/command.h"
#include "control/options.h"
#include "unit.h"

#ifndef HS_SOURCE_DIR
#error "HS_SOURCE_DIR must name the source tree"
#endif

#define MAX_DOC (1 << 20)

/* ---- Reading -------------------------------------------------------------------------- */

/* What the stream holds, NUL-terminated (malloc'd), or NULL. */
static char *read_all(FILE *f) {
    char *buf = malloc(MAX_DOC + 1);
    size_t n = buf ? fread(buf, 1, MAX_DOC, f) : 0;
    if (buf) buf[n] = '\0';
    return buf;
}

/* The whole file (malloc'd), or NULL. */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = read_all(f);
    fclose(f);
    return text;
}

static char *read_source(const char *relative) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", HS_SOURCE_DIR, relative);
    return read_text(path);
}

/* The output of a command line (malloc'd), or NULL. */
static char *run_output(const char *command) {
    FILE *p = popen(command, "r");
    if (!p) return NULL;
    char *out = read_all(p);
    pclose(p);
    return out;
}

/* ---- Markdown sections ---------------------------------------------------------------- */

typedef struct {
    const char *start; /* NULL: not found */
    const char *end;
} span;

static bool span_has(span s, const char *needle) {
    size_t n = strlen(needle);
    for (const char *p = s.start; p && p + n <= s.end; p++)
        if (memcmp(p, needle, n) == 0) return true;
    return false;
}

/* The lines from `heading` (a whole line, e.g. "## Options") to the next heading of the
 * same or a higher level. */
static span section(span within, const char *heading) {
    span found = {NULL, NULL};
    size_t hlen = strlen(heading), level = strspn(heading, "#");
    for (const char *p = within.start; p && p < within.end; p = strchr(p, '\n') + 1) {
        if (!found.start) {
            if (strncmp(p, heading, hlen) == 0 && (p[hlen] == '\n' || p[hlen] == '\0'))
                found.start = p;
        } else if (p[0] == '#') {
            size_t l = strspn(p, "#");
            if (l <= level && p[l] == ' ') {
                found.end = p;
                return found;
            }
        }
        if (!strchr(p, '\n')) break;
    }
    if (found.start) found.end = within.end;
    return found;
}

static span whole(const char *text) { return (span){text, text + strlen(text)}; }

/* ---- (a) options and commands in docs/options.md ------------------------------------- */

/* The option table's rows (hs_options_describe): keys and defaults as the code has them.
 * A flag's default is "off", as the help text writes it. */
typedef struct {
    char key[64];
    char deflt[160];
} option_row;

static int option_rows(option_row *rows, int max) {
    hs_option_info info;
    int n = 0;
    for (size_t i = 0; n < max && hs_options_describe(i, &info); i++, n++) {
        snprintf(rows[n].key, sizeof rows[n].key, "%s", info.name);
        snprintf(rows[n].deflt, sizeof rows[n].deflt, "%s",
                 info.default_text ? info.default_text : "off");
    }
    return n;
}

/* The keys the error of an unknown key lists: "...; accepted: interval, file, ...". */
static int error_keys(char keys[][64], int max) {
    hs_options opts;
    hs_options_defaults(&opts);
    char err[2048];
    if (hs_options_parse("hs_docs_no_such_option=1", &opts, err, sizeof err) == 0) return 0;
    const char *p = strstr(err, "accepted: ");
    int n = 0;
    for (p = p ? p + 10 : ""; *p && n < max; n++) {
        size_t len = strcspn(p, ", ");
        snprintf(keys[n], 64, "%.*s", (int)len, p);
        p += len;
        p += strspn(p, ", ");
    }
    return n;
}

/* The default the help text gives for key ("  key   description\n ... default: X\n"). */
static bool help_default(const char *help, const char *key, char *out, size_t len) {
    char head[80];
    snprintf(head, sizeof head, "\n  %.60s ", key);
    const char *row = strstr(help, head);
    const char *d = row ? strstr(row + 1, "default: ") : NULL;
    if (!d) return false;
    d += 9;
    snprintf(out, len, "%.*s", (int)strcspn(d, "\n"), d);
    return true;
}

/* The option names the help lists under "Options:": rows "  name  description" (a name at
 * column 2), up to the first empty line. */
static int help_keys(const char *help, char keys[][64], int max) {
    int n = 0;
    const char *p = strstr(help, "\nOptions:\n");
    for (p = p ? p + 9 : NULL; p && p[1] != '\n' && n < max; p = strchr(p + 1, '\n')) {
        const char *line = p + 1;
        if (strncmp(line, "  ", 2) != 0 || line[2] == ' ' || line[2] == '\n') continue;
        snprintf(keys[n++], 64, "%.*s", (int)strcspn(line + 2, " \n"), line + 2);
    }
    return n;
}

/* The table's keys are the ones the help and the unknown-key error list, in order, and the
 * help gives the table's defaults. */
static void check_renderings(const option_row *rows, int n, const char *help) {
    char listed[64][64];
    CU_ASSERT_EQUAL(help_keys(help, listed, 64), n);
    for (int i = 0; i < n; i++) CU_ASSERT_STRING_EQUAL(listed[i], rows[i].key);
    CU_ASSERT_EQUAL(error_keys(listed, 64), n);
    for (int i = 0; i < n; i++) CU_ASSERT_STRING_EQUAL(listed[i], rows[i].key);
    for (int i = 0; i < n; i++) {
        char deflt[160];
        CU_ASSERT(help_default(help, rows[i].key, deflt, sizeof deflt) &&
                  strcmp(deflt, rows[i].deflt) == 0);
    }
}

static void test_every_option_documented(void) {
    char *doc = read_source("docs/options.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    char help[16384];
    CU_ASSERT_FATAL(hs_options_help(help, sizeof help) < sizeof help);
    span options = section(whole(doc), "## Options");
    CU_ASSERT_PTR_NOT_NULL(options.start);

    option_row rows[64];
    int n = option_rows(rows, 64);
    CU_ASSERT(n >= 20 && n < 64); /* the table as of writing; 64: rows were cut off here */
    check_renderings(rows, n, help);
    for (int i = 0; i < n; i++) {
        char heading[96], want[256];
        snprintf(heading, sizeof heading, "### `%.60s`", rows[i].key);
        span s = section(options, heading);
        if (!s.start) {
            fprintf(stderr, "docs/options.md: option %s has no section '%s'\n", rows[i].key,
                    heading);
            CU_FAIL("an option is missing from docs/options.md");
            continue;
        }
        snprintf(want, sizeof want, "Default: `%s`", rows[i].deflt);
        if (!span_has(s, want)) {
            fprintf(stderr, "docs/options.md: section of %s lacks '%s'\n", rows[i].key, want);
            CU_FAIL("an option's default in docs/options.md differs from the code's");
        }
    }
    free(doc);
}

/* The usage lines `help` prints ("  usage\n      description\n": exactly two spaces). */
static int help_usages(const char *help, char usages[][512], int max) {
    int n = 0;
    for (const char *p = strchr(help, '\n'); p && p[1] && n < max; p = strchr(p + 1, '\n')) {
        const char *line = p + 1;
        if (strncmp(line, "  ", 2) != 0 || line[2] == ' ') continue;
        snprintf(usages[n++], 512, "%.*s", (int)strcspn(line + 2, "\n"), line + 2);
    }
    return n;
}

static void test_every_command_documented(void) {
    char *doc = read_source("docs/options.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    span commands = section(whole(doc), "## Commands");
    CU_ASSERT_PTR_NOT_NULL_FATAL(commands.start);
    char help[8192];
    CU_ASSERT_FATAL(hs_command_help(help, sizeof help) < sizeof help);
    static char usages[32][512];
    int listed = help_usages(help, usages, 32);

    int seen = 0;
    hs_command_info info;
    for (; hs_command_describe((size_t)seen, &info); seen++) {
        /* the help prints the table's usage lines, each starting with its word */
        CU_ASSERT(seen < listed && strcmp(usages[seen], info.usage) == 0);
        CU_ASSERT(strncmp(info.usage, info.word, strlen(info.word)) == 0);
        char heading[96];
        snprintf(heading, sizeof heading, "### `%.63s`", info.word);
        span s = section(commands, heading);
        if (!s.start || !span_has(s, info.usage)) {
            fprintf(stderr, "docs/options.md: command %s needs a section '%s' with '%s'\n",
                    info.word, heading, info.usage);
            CU_FAIL("a command is missing from docs/options.md");
        }
    }
    CU_ASSERT_EQUAL(listed, seen);
    CU_ASSERT(seen >= 7);
    CU_ASSERT(span_has(commands, "reply=PATH")); /* every command takes it */
    free(doc);
}

/* ---- (c) the operator's command: help against its man page ---------------------------- */

static void expect_in_man(span man, const char *what, const char *token) {
    char bold[96];
    snprintf(bold, sizeof bold, "**%s**", token);
    if (!span_has(man, bold)) {
        fprintf(stderr, "docs/heapsampler.1.md: %s %s of `heapsampler help` is not there as %s\n",
                what, token, bold);
        CU_FAIL("heapsampler help and its man page differ");
    }
}

/* The words of `help`'s usage lines: "  heapsampler VERB ..." and "help | --version", read
 * up to the "flags:" paragraph (the examples below it pipe into other programs). */
static int check_verbs(const char *help, span man) {
    span commands = section(man, "# COMMANDS");
    CU_ASSERT_PTR_NOT_NULL_FATAL(commands.start);
    int n = 0;
    static const char usage[] = "\n  heapsampler ";
    const char *end = strstr(help, "\nflags:");
    CU_ASSERT_PTR_NOT_NULL_FATAL(end);
    for (const char *p = strstr(help, usage); p && p < end; p = strstr(p + 1, usage)) {
        const char *w = p + strlen(usage);
        char verb[64];
        snprintf(verb, sizeof verb, "%.*s", (int)strcspn(w, " \n"), w);
        expect_in_man(commands, "verb", verb);
        n++;
        const char *bar = strstr(w, " | ");
        if (bar && bar < strchr(w, '\n')) {
            snprintf(verb, sizeof verb, "%.*s", (int)strcspn(bar + 3, " \n"), bar + 3);
            expect_in_man(commands, "verb", verb);
        }
    }
    return n;
}

/* Every token starting with '-' in the "flags:" paragraph. */
static int check_flags(const char *help, span man) {
    const char *p = strstr(help, "\nflags:\n"), *end = p ? strstr(p, "\n\n") : NULL;
    int n = 0;
    for (p = p ? p + 8 : NULL; p && p < end; p++) {
        if (*p != '-' || (p[-1] != ' ' && p[-1] != '\n')) continue;
        char flag[64];
        snprintf(flag, sizeof flag, "%.*s", (int)strcspn(p, " ,:\n"), p);
        expect_in_man(man, "flag", flag);
        p += strlen(flag);
        n++;
    }
    return n;
}

/* Every "N word" in the "exit codes:" table. */
static int check_exit_codes(const char *help, span man) {
    const char *p = strstr(help, "\nexit codes:\n"), *end = p ? strstr(p, "\n\n") : NULL;
    int n = 0;
    for (p = p ? p + 13 : NULL; p && p < end; p++) {
        if (!isdigit((unsigned char)*p) || isalnum((unsigned char)p[-1])) continue;
        size_t digits = strspn(p, "0123456789");
        if (p[digits] != ' ' || !isalpha((unsigned char)p[digits + 1])) continue;
        char code[16];
        snprintf(code, sizeof code, "%.*s", (int)digits, p);
        expect_in_man(man, "exit code", code);
        p += digits;
        n++;
    }
    return n;
}

static void test_cli_help_in_man_page(void) {
    char *man_text = read_source("docs/heapsampler.1.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(man_text);
    char *help = run_output("'" HS_CLI_PATH "' help");
    CU_ASSERT_PTR_NOT_NULL_FATAL(help);
    span man = whole(man_text);
    CU_ASSERT(check_verbs(help, man) >= 9);
    CU_ASSERT(check_flags(help, man) >= 9);
    CU_ASSERT(check_exit_codes(help, man) == 13);
    free(help);
    free(man_text);
}

/* ---- (b) links ------------------------------------------------------------------------ */

/* GitHub's anchor of a heading's text: markup dropped (`, *, link targets), lower case,
 * only letters, digits, '-', '_' and spaces kept, spaces to '-'. false for non-ASCII text,
 * whose anchor depends on Unicode classes this test does not model. */
static bool heading_anchor(const char *text, size_t len, char *out, size_t outlen) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < outlen; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x80) return false;
        if (c == ']' && i + 1 < len && text[i + 1] == '(') { /* [text](target): skip target */
            while (i < len && text[i] != ')') i++;
            continue;
        }
        if (isalnum(c) || c == '-' || c == '_') out[o++] = (char)tolower(c);
        else if (c == ' ') out[o++] = '-';
    }
    out[o] = '\0';
    return true;
}

typedef struct {
    char names[512][128];
    int count;
} anchor_set;

static bool anchor_known(const anchor_set *set, const char *name) {
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->names[i], name) == 0) return true;
    return false;
}

/* Adds name, or name-1, name-2... when it is taken (GitHub's rule for repeated headings). */
static void anchor_add(anchor_set *set, const char *name) {
    if (set->count == 512) return;
    char unique[128];
    snprintf(unique, sizeof unique, "%s", name);
    for (int k = 1; anchor_known(set, unique); k++)
        snprintf(unique, sizeof unique, "%s-%d", name, k);
    snprintf(set->names[set->count++], 128, "%s", unique);
}

static bool is_fence(const char *line) {
    line += strspn(line, " ");
    return strncmp(line, "```", 3) == 0 || strncmp(line, "~~~", 3) == 0;
}

/* The anchors of a Markdown file: its headings and <a id="..."> / <a name="...">. */
static bool collect_anchors(const char *path, anchor_set *set) {
    char *text = read_text(path);
    if (!text) return false;
    set->count = 0;
    bool fenced = false;
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        size_t len = strcspn(line, "\n");
        if (is_fence(line)) fenced = !fenced;
        if (fenced) continue;
        size_t hashes = strspn(line, "#");
        char anchor[128];
        if (hashes >= 1 && hashes <= 6 && line[hashes] == ' ') {
            if (!heading_anchor(line + hashes + 1, len - hashes - 1, anchor, sizeof anchor))
                fprintf(stderr, "%s: heading '%.*s' is not ASCII: its anchor is not checked\n",
                        path, (int)len, line);
            else anchor_add(set, anchor);
        }
        for (const char *a = line; (a = strstr(a, "<a ")) && a < line + len; a++) {
            const char *q = strstr(a, "id=\"") ? strstr(a, "id=\"") : strstr(a, "name=\"");
            if (!q || q > line + len) continue;
            q = strchr(q, '"') + 1;
            snprintf(anchor, sizeof anchor, "%.*s", (int)strcspn(q, "\""), q);
            anchor_add(set, anchor);
        }
    }
    free(text);
    return true;
}

/* Checks one link target written in file (a path relative to the source tree). */
static void check_target(const char *file, const char *target) {
    if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0) return;
    char path[8192], dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", HS_SOURCE_DIR, file);
    *strrchr(dir, '/') = '\0';
    size_t plen = strcspn(target, "#");
    if (plen == 0) snprintf(path, sizeof path, "%s/%s", HS_SOURCE_DIR, file);
    else snprintf(path, sizeof path, "%s/%.*s", dir, (int)plen, target);
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: link '%s': no such file %s\n", file, target, path);
        CU_FAIL("a relative link points to no file");
        return;
    }
    if (!target[plen] || !target[plen + 1]) return;
    static anchor_set set;
    if (!collect_anchors(path, &set) || !anchor_known(&set, target + plen + 1)) {
        fprintf(stderr, "%s: link '%s': no anchor '%s' in %s\n", file, target, target + plen + 1,
                path);
        CU_FAIL("a link's #anchor is no heading of its target");
    }
}

/* A line with its `code spans` blanked, so that links inside code are not links. */
static void blank_code_spans(char *line) {
    for (char *p = line; (p = strchr(p, '`'));) {
        size_t ticks = strspn(p, "`");
        char delim[8];
        snprintf(delim, sizeof delim, "%.*s", (int)(ticks < 7 ? ticks : 7), p);
        char *close = strstr(p + ticks, delim);
        if (!close) break;
        memset(p, ' ', (size_t)(close + ticks - p));
        p = close + ticks;
    }
}

/* Every inline link "](target)" and reference definition "[x]: target" of one file. */
static int check_links_of(const char *file) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", HS_SOURCE_DIR, file);
    char *text = read_text(path);
    if (!text) return 0;
    int links = 0;
    bool fenced = false;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (is_fence(line)) fenced = !fenced;
        if (fenced) continue;
        blank_code_spans(line);
        char target[1024];
        for (char *p = line; (p = strstr(p, "](")); p += 2) {
            snprintf(target, sizeof target, "%.*s", (int)strcspn(p + 2, ") "), p + 2);
            check_target(file, target);
            links++;
        }
        if (line[0] == '[' && strstr(line, "]: ")) {
            const char *t = strstr(line, "]: ") + 3;
            snprintf(target, sizeof target, "%.*s", (int)strcspn(t, " "), t);
            check_target(file, target);
            links++;
        }
    }
    free(text);
    return links;
}

static void test_links_resolve(void) {
    int links = check_links_of("README.md") + check_links_of("CHANGELOG.md");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/docs", HS_SOURCE_DIR);
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 3, ".md") != 0) continue;
        char file[512];
        snprintf(file, sizeof file, "docs/%s", e->d_name);
        links += check_links_of(file);
    }
    closedir(d);
    CU_ASSERT(links > 50); /* README and docs/ link to each other: none found means a bug here */
}

/* ---- (d) every log and error line has a row in docs/troubleshooting.md ------------------ */

/* The literal text of a call's format (adjacent string literals joined) up to its first
 * conversion, trimmed: the part of the line a reader can search for. "" when the format is
 * not a literal. */
static void format_prefix(const char *p, char *out, size_t len) {
    size_t o = 0;
    p += strspn(p, " \t\n");
    while (*p == '"') {
        for (p++; *p && *p != '"' && o + 1 < len; p++) {
            if (*p == '\\' && p[1]) p++;           /* an escaped character as itself */
            else if (*p == '%' && p[1] != '%') goto done; /* the first conversion */
            else if (*p == '%') p++;                  /* %% prints one % */
            out[o++] = *p;
        }
        if (*p != '"') goto done;
        p++;
        p += strspn(p, " \t\n");
    }
done:
    while (o > 0 && out[o - 1] == ' ') o--;
    out[o] = '\0';
}

/* Checks each call of `call` in text: its line's prefix (8 bytes or more) must be in doc. */
static int check_calls(const char *file, const char *text, const char *call, bool skip_arg,
                       const char *doc) {
    int n = 0;
    for (const char *p = strstr(text, call); p; p = strstr(p + 1, call)) {
        const char *args = p + strlen(call);
        if (skip_arg) args = strchr(args, ',') ? strchr(args, ',') + 1 : args; /* the exit code */
        char prefix[256];
        format_prefix(args, prefix, sizeof prefix);
        if (strlen(prefix) < 8) continue;
        n++;
        if (!strstr(doc, prefix)) {
            fprintf(stderr, "%s: the line '%s...' has no row in docs/troubleshooting.md\n", file,
                    prefix);
            CU_FAIL("a log or error line is missing from docs/troubleshooting.md");
        }
    }
    return n;
}

/* The agent's hs_warn/hs_error lines, and the command's (src/cli/) failure lines. */
static int check_lines_under(const char *relative_dir, const char *doc) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", HS_SOURCE_DIR, relative_dir);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    bool cli = strstr(relative_dir, "/cli") != NULL;
    for (struct dirent *e; (e = readdir(d));) {
        char file[512];
        snprintf(file, sizeof file, "%s/%s", relative_dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.') continue;
        if (len < 2 || strcmp(e->d_name + len - 2, ".c") != 0) {
            n += check_lines_under(file, doc); /* a folder (or nothing, when it is not one) */
            continue;
        }
        char *text = read_source(file);
        if (!text) continue;
        if (cli) {
            n += check_calls(file, text, "cli_fail(e,", true, doc);
            n += check_calls(file, text, "fail(err, errlen,", false, doc);
        } else {
            n += check_calls(file, text, "hs_warn(", false, doc);
            n += check_calls(file, text, "hs_error(", false, doc);
        }
        free(text);
    }
    closedir(d);
    return n;
}

static void test_every_line_in_troubleshooting(void) {
    char *doc = read_source("docs/troubleshooting.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    int lines = check_lines_under("src", doc);
    CU_ASSERT(lines > 100); /* the agent's and the command's, as of writing */
    free(doc);
}

/* The checker's own rules, on known cases. */
static void test_anchor_rules(void) {
    char out[128];
    const char *heading = "Why `live_scale=residual` is the [default](x.md)";
    CU_ASSERT(heading_anchor(heading, strlen(heading), out, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, "why-live_scaleresidual-is-the-default");
    heading = "Fewer callbacks: the JVM's interval follows the cap";
    CU_ASSERT(heading_anchor(heading, strlen(heading), out, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, "fewer-callbacks-the-jvms-interval-follows-the-cap");
    static anchor_set set;
    set.count = 0;
    anchor_add(&set, "help");
    anchor_add(&set, "help");
    CU_ASSERT(anchor_known(&set, "help-1"));
    char line[] = "see `a](b)` and [c](d.md)";
    blank_code_spans(line);
    CU_ASSERT_PTR_NULL(strstr(line, "](b"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "](d.md"));
    char prefix[64];
    format_prefix(" \"cannot write '%s': \"\n  \"x\"", prefix, sizeof prefix);
    CU_ASSERT_STRING_EQUAL(prefix, "cannot write '");
    format_prefix("\"100%% of \"\n \"%d\"", prefix, sizeof prefix);
    CU_ASSERT_STRING_EQUAL(prefix, "100% of");
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"every option in docs/options.md, with its default", test_every_option_documented},
        {"every command in docs/options.md, with its usage", test_every_command_documented},
        {"heapsampler help's verbs, flags, exit codes in its man page", test_cli_help_in_man_page},
        {"the link checker's anchor rules", test_anchor_rules},
        {"every relative link and anchor resolves", test_links_resolve},
        {"every log and error line in docs/troubleshooting.md", test_every_line_in_troubleshooting},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("docs", tests);
}
