/* profile_output.h: snapshot -> encoded bytes (pprof or collapsed) -> file, atomically. */
#ifndef HS_PROFILE_OUTPUT_H
#define HS_PROFILE_OUTPUT_H

#include <jni.h>

#include "agent.h"
#include "snapshot.h"
#include "profile.h"

/* Writes the agent's current profile to path in the format of format=. On any failure
 * logs one "heapsampler:" line naming the path and the reason, and returns -1; a profile
 * already at path is then left as it was. */
int hs_write_profile(hs_agent *agent, JNIEnv *jni, const char *path);

/* The same for a snapshot request (snapshot.h; NULL: the whole run, as above). */
int hs_write_profile_request(hs_agent *agent, JNIEnv *jni, const char *path,
                             const hs_snapshot_request *req);

/* Builds the profile of a request (NULL: the whole run) and encodes it in format (pprof:
 * gzipped; collapsed: the collapsed= metric; html) into *out (malloc'd, the caller frees),
 * its length into *len and its sample count into *nsamples (may be NULL). 0, or -1 when
 * memory ran out (nothing logged: the caller says what was lost). */
int hs_encode_profile_request(hs_agent *agent, JNIEnv *jni, const hs_snapshot_request *req,
                              hs_format format, uint8_t **out, size_t *len, uint32_t *nsamples);

/* Writes a profile built elsewhere (the retention paths) as gzipped pprof, atomically.
 * 0, or -1 with one line logged. */
int hs_write_profile_file(const hs_profile *profile, const char *path);

#endif
