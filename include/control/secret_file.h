/* secret_file.h: reading a file that holds a secret: the endpoint's bearer token
 * (http_token=@FILE) and the push credentials (push_auth=@FILE).
 *
 * The file is opened without blocking (a FIFO planted there must not hang the JVM's start)
 * and must be a regular file that neither its group nor others can read or write: a token
 * others can read protects nothing, one others can write is theirs to choose. Such a file
 * is refused, saying the fix (chmod 600 FILE). The content is never quoted in a message,
 * and the caller wipes its buffer once done. */
#ifndef HS_SECRET_FILE_H
#define HS_SECRET_FILE_H

#include <stddef.h>

/* Reads path into buf (at most cap - 1 bytes, NUL-terminated) and sets *len. 0, or -1 with
 * why (one phrase: "cannot read it: ...", "not a regular file", the mode and the fix, or
 * "the file is longer than N bytes"). */
int hs_read_secret_file(const char *path, char *buf, size_t cap, size_t *len, char *why,
                        size_t whylen);

#endif
