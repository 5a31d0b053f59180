/* cli_error.c: recording the command's one failure line (see cli_error.h). */
#include "cli_error.h"

#include <stdarg.h>
#include <stdio.h>

int cli_fail(cli_err *e, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code = code;
    return code;
}
