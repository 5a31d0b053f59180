/* thread_names.h: the distinct Java thread names that label samples (threads=true).
 *
 * A thread's name is read on its first sample (thread_ids.h caches the id by the thread's
 * own id, not in a C thread-local: that would be the carrier's under virtual threads) and
 * interned here; samples then carry only the small id, part of their bucket key, and the
 * snapshot turns it back into the string label "thread". Equal names share an id, so a pool
 * that replaces its threads under the same names does not grow the table. Lock-free: a
 * name is found through a hash index in a probe or two, and a new one is appended with one
 * atomic claim; two threads interning the same new name at once may get two ids for it,
 * which only splits a label's samples over two equal strings. Pure C, no JVM. */
#ifndef HS_THREAD_NAMES_H
#define HS_THREAD_NAMES_H

#include <stdint.h>

typedef struct hs_thread_names hs_thread_names;

/* Room for `capacity` distinct names (at least 1), id HS_THREAD_UNKNOWN_ID already taken by
 * HS_THREAD_NAME_UNKNOWN. NULL on ENOMEM. */
hs_thread_names *hs_thread_names_create(uint32_t capacity);
void hs_thread_names_destroy(hs_thread_names *names);

/* The id (>= 1) of name, adding a copy on first sight; 0 when the table is full or the
 * copy cannot be made (the caller then uses HS_THREAD_UNKNOWN_ID). */
uint32_t hs_thread_names_intern(hs_thread_names *names, const char *name);

/* The name of an id from intern; NULL for 0 and ids not (yet) handed out. */
const char *hs_thread_names_get(const hs_thread_names *names, uint32_t id);

#define HS_THREAD_NAME_UNKNOWN "[unknown thread]"
#define HS_THREAD_UNKNOWN_ID 1u

#endif
