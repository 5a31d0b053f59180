/* faults.c: delays and errors injected for tests (see faults.h). */
#include "base/faults.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const FAULT_NAMES[HS_FAULT_COUNT] = {"callback_delay_ms", "sweeper_exit_delay_ms",
                                                         "line_table_error"};

static int values[HS_FAULT_COUNT];

/* Parses one "name=number" item; -1 if it is not one. */
static int configure_item(const char *item, size_t len) {
    for (int f = 0; f < HS_FAULT_COUNT; f++) {
        size_t name_len = strlen(FAULT_NAMES[f]);
        if (len <= name_len + 1 || strncmp(item, FAULT_NAMES[f], name_len) != 0 ||
            item[name_len] != '=')
            continue;
        char digits[16];
        size_t ndigits = len - name_len - 1;
        if (ndigits >= sizeof digits) return -1;
        memcpy(digits, item + name_len + 1, ndigits);
        digits[ndigits] = '\0';
        char *end = NULL;
        long value = strtol(digits, &end, 10);
        if (*end != '\0' || value < 0 || value > 600000) return -1;
        values[f] = (int)value;
        return 0;
    }
    return -1;
}

int hs_faults_configure(const char *text) {
    memset(values, 0, sizeof values);
    int rc = 0;
    for (const char *p = text ? text : ""; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && configure_item(p, len) != 0) rc = -1;
        p += len + (p[len] == ',');
    }
    return rc;
}

int hs_fault_value(hs_fault fault) { return fault >= 0 && fault < HS_FAULT_COUNT ? values[fault] : 0; }

int hs_fault_delay_ms(hs_fault fault) { return hs_fault_value(fault); }

void hs_fault_delay(hs_fault fault) {
    int ms = hs_fault_delay_ms(fault);
    if (ms <= 0) return;
    struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0) {
    }
}
