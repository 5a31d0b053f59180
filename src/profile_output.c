/* profile_output.c: snapshot, encode (pprof or collapsed), write atomically. */
#include "profile_output.h"

#include <stdlib.h>
#include <string.h>

#include "collapsed.h"
#include "file_output.h"
#include "log.h"
#include "pprof.h"
#include "snapshot.h"

/* Encodes as gzipped profile.proto. */
static int encode_pprof(const hs_profile *p, uint8_t **out, size_t *len) {
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    if (hs_pprof_encode(p, &raw, &raw_len) != 0) return -1;
    int rc = hs_gzip(raw, raw_len, out, len);
    free(raw);
    return rc;
}

/* Encodes the profile's default sample type as collapsed stacks. */
static int encode_collapsed(const hs_profile *p, uint8_t **out, size_t *len) {
    uint32_t value = 0;
    for (uint32_t i = 0; i < p->nsample_types; i++)
        if (p->default_sample_type && strcmp(p->sample_types[i].type, p->default_sample_type) == 0)
            value = i;
    char *text = NULL;
    if (hs_collapsed_encode(p, value, &text, len) != 0) return -1;
    *out = (uint8_t *)text;
    return 0;
}

int hs_write_profile(hs_agent *agent, JNIEnv *jni, const char *path) {
    hs_profile *profile = hs_snapshot_build(agent, jni);
    if (!profile) {
        hs_error("cannot write '%s': out of memory while building the profile", path);
        return -1;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = agent->opts.format == HS_FORMAT_COLLAPSED ? encode_collapsed(profile, &bytes, &len)
                                                       : encode_pprof(profile, &bytes, &len);
    uint32_t nsamples = profile->nsamples;
    hs_profile_free(profile);
    if (rc != 0) {
        hs_error("cannot write '%s': out of memory while encoding the profile", path);
        return -1;
    }
    char err[HS_PATH_MAX + 256];
    rc = hs_write_file_atomic(path, bytes, len, err, sizeof err);
    free(bytes);
    if (rc != 0) {
        hs_error("%s", err);
        return -1;
    }
    hs_info("wrote %s (%u stacks written, %zu bytes)", path, nsamples, len);
    return 0;
}
