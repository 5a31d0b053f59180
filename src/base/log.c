/* log.c: single-line, lock-free, allocation-free logging to stderr (see log.h); a
 * command thread may capture its own lines (hs_log_capture). */
#include "base/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_int log_level = HS_LOG_WARN;
static atomic_int log_fd = 2;
/* A command answering into a reply file takes its own errors and warnings there. */
static _Thread_local hs_text *captured;

void hs_log_capture(hs_text *into) { captured = into; }

void hs_log_set_level(hs_log_level level) { atomic_store(&log_level, (int)level); }
hs_log_level hs_log_get_level(void) { return (hs_log_level)atomic_load(&log_level); }
int hs_log_enabled(hs_log_level level) { return (int)level <= atomic_load(&log_level); }
void hs_log_set_fd(int fd) { atomic_store(&log_fd, fd); }

void hs_log(hs_log_level level, const char *fmt, ...) {
    if (!hs_log_enabled(level)) return;
    int saved_errno = errno;
    char line[1024];
    static const char prefix[] = "heapsampler: ";
    size_t len = sizeof prefix - 1;
    memcpy(line, prefix, len);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line + len, sizeof line - len - 1, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if (captured && level <= HS_LOG_WARN) {
        hs_text_append(captured, line + sizeof prefix - 1,
                       strnlen(line + sizeof prefix - 1, sizeof line - sizeof prefix));
        hs_text_puts(captured, "\n");
        errno = saved_errno;
        return;
    }
    len += (size_t)n < sizeof line - len - 1 ? (size_t)n : sizeof line - len - 2;
    line[len++] = '\n';
    const char *p = line;
    while (len > 0) { /* one write in practice; loop only for short writes */
        ssize_t w = write(atomic_load(&log_fd), p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        p += w;
        len -= (size_t)w;
    }
    errno = saved_errno;
}
