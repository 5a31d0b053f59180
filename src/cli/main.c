/* main.c: the `heapsampler` command: parses the verb, runs it, prints its one failure line.
 *
 * It talks to the JVM itself (HotSpot's attach protocol: no JDK needed on the host) and
 * shares nothing with the agent but the version and the reply-file format. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cli_error.h"
#include "safe_text.h"
#include "temp_files.h"
#include "verbs.h"

static const char help_head[] =
    "heapsampler " HEAPSAMPLER_VERSION ": ask the heapsampler agent in a running JVM, from your terminal\n"
    "\n"
    "usage:\n";

static const char help_tail[] =
    "\n"
    "flags:\n"
    "  --timeout DURATION   give up after this long (default 10s; 500ms, 2m...)\n"
    "  --lib PATH           load, profile: the agent library (default: beside this command,\n"
    "                       or ../lib/heapsampler/ when installed)\n"
    "  --http [HOST:]PORT   load, start: serve /debug/pprof/ (HOST 127.0.0.1 by default; another\n"
    "                       host needs --http-token FILE, a file holding the bearer token)\n"
    "  --help               a verb's usage and flags: heapsampler top --help\n"
    "  -o, -d, --force, -n, --by, --every, --stack, --paths, --gc, --json: as above\n"
    "\n"
    "Another user's JVM needs root (files made for the JVM then belong to its user); a JVM in a\n"
    "container is reached through /proc/PID/root (the library is copied in when not visible,\n"
    "and stays in its /tmp/heapsampler-VERSION/). JDK 21+ prints a warning on the JVM's stderr\n"
    "when an agent is loaded into a running JVM unless started with\n"
    "-XX:+EnableDynamicAgentLoading; nothing else is ever printed in the application's output.\n"
    "\n"
    "exit codes:\n"
    "  0 ok                       7 heapsampler not loaded in the JVM (use load)\n"
    "  1 usage                    8 the agent's version differs from this command's\n"
    "  2 no such process          9 the agent answered with an error\n"
    "  3 not a JVM               10 the output file exists (use --force)\n"
    "  4 permission (other user) 11 writing the output file failed\n"
    "  5 attach failed/refused   12 load: already loaded (use start)\n"
    "  6 timeout\n"
    "\n"
    "examples:\n"
    "  heapsampler list\n"
    "  heapsampler profile 4242 -d 30s -o heap.html\n"
    "  heapsampler load 4242 interval=64k,dump_period=1m\n"
    "  heapsampler top 4242 -n 10 --every 5s\n"
    "  heapsampler top 4242 --by class\n"
    "  heapsampler dump 4242 -o heap.pb.gz --paths 5 && go tool pprof -top heap.pb.gz\n"
    "  heapsampler paths 4242 -n 3\n"
    "  heapsampler start 4242 --http 127.0.0.1:0 && heapsampler status 4242 | grep http:\n"
    "\n"
    "Without this command: jcmd PID JVMTI.agent_load /path/libheapsampler.so status,file=PATH\n";

/* The summary (the verbs from args.c's table), or one verb's help. */
static void print_help(const char *verb) {
    char text[4096];
    if (verb && cli_verb_help(verb, text, sizeof text) > 0) {
        fputs(text, stdout);
        return;
    }
    fputs(help_head, stdout);
    cli_verb_info info;
    for (size_t i = 0; cli_verb_describe(i, &info); i++) {
        printf("  heapsampler %s\n", info.usage);
        for (const char *p = info.help; *p;) {
            size_t n = strcspn(p, "\n");
            printf("      %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
    fputs(help_tail, stdout);
}

/* Prints the failure, one "heapsampler: " line per line of the message, escaped (it may
 * carry the target's bytes: the agent's error lines, the JVM's reason, a file name). */
static void print_failure(const cli_err *e) {
    for (const char *p = e->msg; *p;) {
        size_t n = strcspn(p, "\n");
        char line[4 * sizeof e->msg];
        cli_escape(p, n, false, line, sizeof line);
        if (n) fprintf(stderr, "heapsampler: %s\n", line);
        p += n + (p[n] == '\n');
    }
    if (!e->msg[0]) fprintf(stderr, "heapsampler: failed (exit %d)\n", e->code);
}

int main(int argc, char **argv) {
    cli_args args;
    cli_err e = {0, ""};
    char err[512];
    if (cli_parse_args(argc, argv, &args, err, sizeof err) != 0) {
        fprintf(stderr, "heapsampler: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    cli_temp_install_signals(130);
    int rc = 0;
    switch (args.verb) {
    case CLI_VERB_HELP: print_help(args.help_verb); return 0;
    case CLI_VERB_VERSION: printf("heapsampler %s\n", HEAPSAMPLER_VERSION); return 0;
    case CLI_VERB_LIST: rc = cli_verb_list(&args, &e); break;
    case CLI_VERB_LOAD: rc = cli_verb_load(&args, &e); break;
    case CLI_VERB_STATUS:
    case CLI_VERB_START:
    case CLI_VERB_STOP: rc = cli_verb_simple(&args, &e); break;
    case CLI_VERB_DUMP: rc = cli_verb_dump(&args, &e); break;
    case CLI_VERB_TOP: rc = cli_verb_top(&args, &e); break;
    case CLI_VERB_PATHS: rc = cli_verb_paths(&args, &e); break;
    case CLI_VERB_PROFILE: rc = cli_verb_profile(&args, &e); break;
    }
    if (rc) print_failure(&e);
    if (fflush(stdout) != 0 && rc == 0) {
        fprintf(stderr, "heapsampler: writing to stdout failed\n");
        rc = CLI_EXIT_WRITE;
    }
    return rc;
}
