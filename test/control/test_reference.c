/* test_reference.c: the option and command tables as the reference reads them
 * (hs_options_describe, hs_command_describe; printed by hs_reference for docs/options.md)
 * say what the help text and the error lines say: one table, three readers. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "control/command.h"
#include "control/options.h"
#include "unit.h"

static char help[64 * 1024];

static void test_every_option_in_the_help(void) {
    CU_ASSERT_TRUE(hs_options_help(help, sizeof help) < sizeof help);
    hs_option_info o;
    size_t n = 0;
    for (; hs_options_describe(n, &o); n++) {
        char line[256];
        snprintf(line, sizeof line, "  %-12s %s\n", o.name, o.description);
        CU_ASSERT_PTR_NOT_NULL(strstr(help, line));
        CU_ASSERT_PTR_NOT_NULL(strstr(help, o.accepted));
        snprintf(line, sizeof line, "default: %s\n", o.default_text ? o.default_text : "off");
        CU_ASSERT_PTR_NOT_NULL(strstr(help, line));
    }
    CU_ASSERT_TRUE(n >= 24); /* interval ... http_token at the time of writing */
    CU_ASSERT_FALSE(hs_options_describe(n, &o));
    CU_ASSERT_FALSE(hs_options_describe((size_t)-1, &o));
}

/* Each default, given explicitly, parses; an unknown key's error lists every option. */
static void test_every_option_parses_its_default(void) {
    char err[4096];
    hs_options opts;
    hs_options_defaults(&opts);
    CU_ASSERT_EQUAL(hs_options_parse("no_such_option=1", &opts, err, sizeof err), -1);
    hs_option_info o;
    for (size_t i = 0; hs_options_describe(i, &o); i++) {
        CU_ASSERT_PTR_NOT_NULL(strstr(err, o.name));
        if (!o.default_text || strcmp(o.name, "help") == 0) continue;
        char text[512];
        char why[4096];
        snprintf(text, sizeof text, "%s=%s", o.name, o.default_text);
        hs_options_defaults(&opts); /* parse adds to what it is given */
        int rc = hs_options_parse(text, &opts, why, sizeof why);
        if (rc != 0) fprintf(stderr, "%s: %s\n", text, why);
        CU_ASSERT_EQUAL(rc, 0);
    }
}

static void test_option_names_unique(void) {
    hs_option_info a, b;
    for (size_t i = 0; hs_options_describe(i, &a); i++)
        for (size_t j = i + 1; hs_options_describe(j, &b); j++)
            CU_ASSERT_NOT_EQUAL(strcmp(a.name, b.name), 0);
}

/* `help` and the "accepted:" of a bad command both show every command's usage. */
static void test_every_command_in_help_and_errors(void) {
    CU_ASSERT_TRUE(hs_command_help(help, sizeof help) < sizeof help);
    hs_options running;
    hs_options_defaults(&running);
    hs_command cmd;
    char err[4096];
    CU_ASSERT_EQUAL(hs_command_parse("no_such_command", &running, &cmd, err, sizeof err), -1);
    hs_command_info c;
    size_t n = 0;
    for (; hs_command_describe(n, &c); n++) {
        CU_ASSERT_PTR_NOT_NULL(strstr(help, c.usage));
        CU_ASSERT_PTR_NOT_NULL(strstr(help, c.description));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, c.usage));
        CU_ASSERT_EQUAL(strncmp(c.usage, c.word, strlen(c.word)), 0);
        CU_ASSERT_TRUE(hs_command_is_command(c.word));
    }
    CU_ASSERT_TRUE(n >= 7); /* dump start stop status top paths help */
    CU_ASSERT_FALSE(hs_command_describe(n, &c));
}

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("reference", NULL, NULL);
    CU_add_test(suite, "every option's row is in the help", test_every_option_in_the_help);
    CU_add_test(suite, "every option parses its default", test_every_option_parses_its_default);
    CU_add_test(suite, "option names are unique", test_option_names_unique);
    CU_add_test(suite, "every command in help and in the errors",
                test_every_command_in_help_and_errors);
}
