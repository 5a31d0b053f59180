/* hs_reference.c: prints the agent's option and command tables, one row a line, for the
 * check that the reference page (docs/options.md) names every one of them.
 *
 *   option<TAB>NAME<TAB>DEFAULT<TAB>ACCEPTED<TAB>DESCRIPTION     (DEFAULT "off": a flag)
 *   command<TAB>WORD<TAB>USAGE<TAB>DESCRIPTION
 *
 * It reads the same tables the help text and the error lines are written from
 * (hs_options_describe, hs_command_describe), so the reference cannot drift from them. */
#include <stdio.h>

#include "control/command.h"
#include "control/options.h"

int main(void) {
    hs_option_info o;
    for (size_t i = 0; hs_options_describe(i, &o); i++)
        printf("option\t%s\t%s\t%s\t%s\n", o.name, o.default_text ? o.default_text : "off",
               o.accepted, o.description);
    hs_command_info c;
    for (size_t i = 0; hs_command_describe(i, &c); i++)
        printf("command\t%s\t%s\t%s\n", c.word, c.usage, c.description);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
