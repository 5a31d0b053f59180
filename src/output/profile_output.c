/* profile_output.c: snapshot, encode (pprof, collapsed, html or a caller's encoder), write
 * atomically or into a reply.h file. */
#include "output/profile_output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/collapsed.h"
#include "output/file_output.h"
#include "output/html.h"
#include "base/log.h"
#include "output/pprof.h"
#include "output/reply.h"
#include "output/snapshot.h"

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
static int encode_collapsed(const hs_profile *p, const char *metric, uint8_t **out, size_t *len) {
    uint32_t value = hs_profile_sample_type_index(p, metric);
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

int hs_profile_encode_format(hs_format format, const char *metric, const hs_profile *p,
                             uint8_t **out, size_t *len) {
    switch (format) {
    case HS_FORMAT_COLLAPSED: return encode_collapsed(p, metric, out, len);
    case HS_FORMAT_HTML: return encode_html(p, out, len);
    case HS_FORMAT_PPROF: break;
    }
    return encode_pprof(p, out, len);
}

/* Writes encoded bytes to the target (frees them). 0, or -1 (logged). */
static int write_encoded(const hs_profile_target *t, uint8_t *bytes, size_t len) {
    char err[HS_PATH_MAX + 256];
    int rc = t->fd >= 0 ? hs_reply_fill(t->fd, bytes, len, err, sizeof err)
                        : hs_write_file_atomic(t->path, bytes, len, err, sizeof err);
    free(bytes);
    if (rc != 0 && t->fd >= 0) hs_error("cannot write '%s': %s", t->path, err);
    else if (rc != 0) hs_error("%s", err);
    return rc;
}

static void close_target(const hs_profile_target *t) {
    if (t->fd >= 0) close(t->fd);
}

int hs_write_profile(const hs_snapshot_source *src, JNIEnv *jni, const char *path) {
    return hs_write_profile_request(src, jni, path, NULL);
}

int hs_write_profile_request(const hs_snapshot_source *src, JNIEnv *jni, const char *path,
                             const hs_snapshot_request *req) {
    hs_profile_target target = {.path = path, .fd = -1};
    return hs_write_profile_to(src, jni, &target, req);
}

int hs_write_profile_to(const hs_snapshot_source *src, JNIEnv *jni, const hs_profile_target *target,
                        const hs_snapshot_request *req) {
    const char *path = target->path;
    hs_profile *profile = hs_snapshot_build_request(src, jni, req);
    if (!profile) {
        hs_error("cannot write '%s': out of memory while building the profile", path);
        close_target(target);
        return -1;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = target->encode
                 ? target->encode(profile, target->ctx, &bytes, &len)
                 : hs_profile_encode_format(src->format, src->collapsed_type, profile,
                                            &bytes, &len);
    uint32_t nsamples = profile->nsamples;
    hs_profile_free(profile);
    if (rc != 0) {
        hs_error("cannot write '%s': out of memory while encoding the profile", path);
        close_target(target);
        return -1;
    }
    if (write_encoded(target, bytes, len) != 0) return -1;
    hs_info("wrote %s (%u stacks written, %zu bytes)", path, nsamples, len);
    return 0;
}

static int write_pprof(const hs_profile *profile, const hs_profile_target *target) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (encode_pprof(profile, &bytes, &len) != 0) {
        hs_error("cannot write '%s': out of memory while encoding the profile", target->path);
        close_target(target);
        return -1;
    }
    if (write_encoded(target, bytes, len) != 0) return -1;
    hs_info("wrote %s (%u stacks written, %zu bytes)", target->path, profile->nsamples, len);
    return 0;
}

int hs_write_profile_file(const hs_profile *profile, const char *path) {
    hs_profile_target target = {.path = path, .fd = -1};
    return write_pprof(profile, &target);
}

int hs_write_profile_fd(const hs_profile *profile, int fd, const char *path) {
    hs_profile_target target = {.path = path, .fd = fd};
    return write_pprof(profile, &target);
}
