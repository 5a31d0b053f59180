/* cli_faults.c: the command's test-only pauses (see cli_faults.h). */
#include "cli_faults.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cli_fault_set(const char *item) {
    const char *faults = getenv("HEAPSAMPLER_TEST_FAULTS");
    size_t n = strlen(item);
    for (const char *p = faults; p && *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, item, n) == 0) return true;
        p += len + (p[len] == ',');
    }
    return false;
}

void cli_fault_stop(const char *step) {
    char item[64];
    snprintf(item, sizeof item, "cli_stop_at=%s", step);
    if (cli_fault_set(item)) raise(SIGSTOP);
}
