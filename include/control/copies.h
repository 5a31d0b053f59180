/* copies.h: other copies of this library loaded into the same process.
 *
 * Two files of heapsampler in one JVM (`-agentpath:a/libheapsampler.so
 * -agentpath:b/libheapsampler.so`, or a platform that injects its copy while the
 * application names its own) are two agents to the JVM, each with its own state, and only
 * one can hold heap sampling (a solo JVMTI capability). The copy that holds it answers
 * HS_COPY_MARKER (exported, exports.map) with non-zero; the others find it here, say which
 * file runs, step aside at startup, and hand attaches (commands) to it. */
#ifndef HS_COPIES_H
#define HS_COPIES_H

#include <jni.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The exported function every copy has: jint (void), non-zero when this copy runs. */
#define HS_COPY_MARKER "heapsampler_copy_running"

typedef jint (*hs_copy_marker_fn)(void);
typedef jint (*hs_copy_attach_fn)(JavaVM *vm, char *options, void *reserved);

typedef struct {
    char path[PATH_MAX];         /* its file, as the dynamic loader names it */
    hs_copy_attach_fn on_attach; /* its Agent_OnAttach */
} hs_copy;

/* The copy other than the caller (whose marker is `self`) that runs in this process: true
 * with *out filled, false when there is none (or it cannot be told). */
bool hs_copies_find_running(hs_copy_marker_fn self, hs_copy *out);

/* The file this copy was loaded from (the caller's marker identifies it); "" if unknown. */
void hs_copies_own_path(hs_copy_marker_fn self, char *out, size_t len);

#endif
