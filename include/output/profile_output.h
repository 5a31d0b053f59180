/* profile_output.h: snapshot -> encoded bytes (pprof, collapsed, html or another encoder)
 * -> file, atomically, or into a file the operator's command created (reply.h). */
#ifndef HS_PROFILE_OUTPUT_H
#define HS_PROFILE_OUTPUT_H

#include <jni.h>

#include "output/snapshot.h"
#include "profile/profile.h"

/* Writes the current profile of src to path in the format of format=. On any failure
 * logs one "heapsampler:" line naming the path and the reason, and returns -1; a profile
 * already at path is then left as it was. */
int hs_write_profile(const hs_snapshot_source *src, JNIEnv *jni, const char *path);

/* The same for a snapshot request (snapshot.h; NULL: the whole run, as above). */
int hs_write_profile_request(const hs_snapshot_source *src, JNIEnv *jni, const char *path,
                             const hs_snapshot_request *req);

/* Encodes p in one format (collapsed, html: metric is the sample type they show, as
 * collapsed= names it: "alloc_space", ...). Bytes malloc'd. 0 or -1. */
int hs_profile_encode_format(hs_format format, const char *metric, const hs_profile *p,
                             uint8_t **out, size_t *len);

/* Another encoding (the text report): bytes malloc'd; 0 or -1 (ENOMEM). */
typedef int (*hs_profile_encoder)(const hs_profile *p, void *ctx, uint8_t **out, size_t *len);

/* Where a profile goes and how it is encoded. */
typedef struct {
    const char *path;          /* written atomically when fd < 0; named in messages */
    int fd;                    /* >= 0: into this file opened by reply.h (closed after) */
    hs_profile_encoder encode; /* NULL: format= and collapsed= of the startup options */
    void *ctx;
} hs_profile_target;

/* hs_write_profile_request to a target. 0, or -1 with one line logged. */
int hs_write_profile_to(const hs_snapshot_source *src, JNIEnv *jni, const hs_profile_target *target,
                        const hs_snapshot_request *req);

/* Writes a profile built elsewhere (the retention paths) as gzipped pprof, atomically.
 * 0, or -1 with one line logged. */
int hs_write_profile_file(const hs_profile *profile, const char *path);
/* The same into an fd from hs_reply_open (closed after); path names it in messages. */
int hs_write_profile_fd(const hs_profile *profile, int fd, const char *path);

#endif
