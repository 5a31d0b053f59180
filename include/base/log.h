/* log.h: the agent's only way to talk to the user: one stderr line per message.
 *
 * Every line starts with "heapsampler: ". Formatting happens in a stack buffer and the
 * line goes out in a single write(2), so logging never allocates or locks and lines
 * from different threads never interleave. */
#ifndef HS_LOG_H
#define HS_LOG_H

#include "base/text.h"

typedef enum { HS_LOG_ERROR = 0, HS_LOG_WARN, HS_LOG_INFO, HS_LOG_DEBUG } hs_log_level;

/* Messages above this level are dropped. Default: HS_LOG_WARN. */
void hs_log_set_level(hs_log_level level);
hs_log_level hs_log_get_level(void);
int hs_log_enabled(hs_log_level level);

/* Redirects output to another file descriptor (tests); default 2 (stderr). */
void hs_log_set_fd(int fd);

/* While into is set, errors and warnings logged by this thread are appended to it (one
 * line each, without the "heapsampler: " prefix) instead of going to stderr: a command
 * answering into a reply file (control.c). NULL: back to stderr. Other threads are not
 * affected. */
void hs_log_capture(hs_text *into);

void hs_log(hs_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define hs_error(...) hs_log(HS_LOG_ERROR, __VA_ARGS__)
#define hs_warn(...) hs_log(HS_LOG_WARN, __VA_ARGS__)
#define hs_info(...) hs_log(HS_LOG_INFO, __VA_ARGS__)
#define hs_debug(...) hs_log(HS_LOG_DEBUG, __VA_ARGS__)

#endif
