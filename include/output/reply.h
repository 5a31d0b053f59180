/* reply.h: the files a command answers into, created beforehand by the operator's command
 * (`heapsampler`): reply= (the answer), out= and paths_out= (a dump's bytes).
 *
 * The agent never creates such a file and never follows a link to one: it opens PATH with
 * O_WRONLY|O_NOFOLLOW|O_NOCTTY|O_CLOEXEC|O_NONBLOCK (no O_CREAT; O_NONBLOCK so that a FIFO
 * planted there cannot hang the JVM's attach thread) and keeps it only when fstat says it
 * is a regular file owned by the JVM's effective uid with exactly one link. Then it
 * truncates it and writes the whole content, built in memory first.
 *
 * The answer (reply=):
 *   heapsampler-reply 1 version=<HEAPSAMPLER_VERSION> rc=<0|1>
 *   <the answer text, or the error line(s) when rc=1>
 * Pure POSIX; no JVM. */
#ifndef HS_REPLY_H
#define HS_REPLY_H

#include <stddef.h>

#include "base/text.h"

#define HS_REPLY_MAGIC "heapsampler-reply"
#define HS_REPLY_PROTOCOL 1

/* Opens PATH as above. The fd, or -1 with "reply file 'PATH': <why>" in err. `what` names
 * the option in messages ("reply", "out", "paths_out"). */
int hs_reply_open(const char *what, const char *path, char *err, size_t errlen);

/* Replaces the content of fd (from hs_reply_open) with data, then closes fd. 0, or -1 with
 * the reason in err (fd closed either way). */
int hs_reply_fill(int fd, const void *data, size_t len, char *err, size_t errlen);

/* Appends the header line for rc (0 or 1) to t. */
void hs_reply_header(hs_text *t, int rc);

/* Writes the header for rc and body into fd (from hs_reply_open), then closes it. 0, or
 * -1 with err. */
int hs_reply_answer(int fd, int rc, const char *body, char *err, size_t errlen);

/* Opens PATH and writes the header for rc and body into it. 0, or -1 with err. */
int hs_reply_send(const char *path, int rc, const char *body, char *err, size_t errlen);

#endif
