/* profile_output.c: snapshot, encode (pprof, collapsed or html), write atomically. */
#include "profile_output.h"

#include <stdlib.h>
#include <string.h>

#include "collapsed.h"
#include "file_output.h"
#include "html.h"
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

/* Encodes the collapsed= metric as collapsed stacks (options.c made sure the profile
 * has it: in-use metrics need live=true). */
static int encode_collapsed(const hs_profile *p, hs_metric metric, uint8_t **out, size_t *len) {
    uint32_t value = hs_profile_sample_type_index(p, hs_metric_name(metric));
    char *text = NULL;
    if (hs_collapsed_encode(p, value, &text, len) != 0) return -1;
    *out = (uint8_t *)text;
    return 0;
}

static int encode_html(const hs_profile *p, uint8_t **out, size_t *len) {
    char *text = NULL;
    if (hs_html_encode(p, &text, len) != 0) return -1;
    *out = (uint8_t *)text;
    return 0;
}

static int encode(hs_format format, hs_metric metric, const hs_profile *p, uint8_t **out,
                  size_t *len) {
    switch (format) {
    case HS_FORMAT_COLLAPSED: return encode_collapsed(p, metric, out, len);
    case HS_FORMAT_HTML: return encode_html(p, out, len);
    case HS_FORMAT_PPROF: break;
    }
    return encode_pprof(p, out, len);
}

/* Writes encoded bytes atomically (frees them). 0, or -1 (logged). */
static int write_encoded(const char *path, uint8_t *bytes, size_t len) {
    char err[HS_PATH_MAX + 256];
    int rc = hs_write_file_atomic(path, bytes, len, err, sizeof err);
    free(bytes);
    if (rc != 0) hs_error("%s", err);
    return rc;
}

int hs_write_profile(hs_agent *agent, JNIEnv *jni, const char *path) {
    return hs_write_profile_request(agent, jni, path, NULL);
}

int hs_encode_profile_request(hs_agent *agent, JNIEnv *jni, const hs_snapshot_request *req,
                              hs_format format, uint8_t **out, size_t *len, uint32_t *nsamples) {
    hs_profile *profile = hs_snapshot_build_request(agent, jni, req);
    if (!profile) return -1;
    int rc = encode(format, agent->opts.collapsed, profile, out, len);
    if (nsamples) *nsamples = profile->nsamples;
    hs_profile_free(profile);
    return rc;
}

int hs_write_profile_request(hs_agent *agent, JNIEnv *jni, const char *path,
                             const hs_snapshot_request *req) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    uint32_t nsamples = 0;
    if (hs_encode_profile_request(agent, jni, req, agent->opts.format, &bytes, &len,
                                  &nsamples) != 0) {
        hs_error("cannot write '%s': out of memory while building the profile", path);
        return -1;
    }
    if (write_encoded(path, bytes, len) != 0) return -1;
    hs_info("wrote %s (%u stacks written, %zu bytes)", path, nsamples, len);
    return 0;
}

int hs_write_profile_file(const hs_profile *profile, const char *path) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (encode_pprof(profile, &bytes, &len) != 0) {
        hs_error("cannot write '%s': out of memory while encoding the profile", path);
        return -1;
    }
    if (write_encoded(path, bytes, len) != 0) return -1;
    hs_info("wrote %s (%u stacks written, %zu bytes)", path, profile->nsamples, len);
    return 0;
}
