/* pprof.h: encodes an hs_profile as profile.proto (github.com/google/pprof), gzipped.
 *
 * Our own minimal protobuf writer: varints and length-delimited fields are all pprof
 * needs. One Mapping "[jvm]" (id 1); a Location per (function, line) with one Line;
 * ids are 1-based indexes; string_table[0] is "". */
#ifndef HS_PPROF_H
#define HS_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/* Encodes p as an uncompressed Profile message into a malloc'd buffer. 0 or -1 (ENOMEM). */
int hs_pprof_encode(const hs_profile *p, uint8_t **out, size_t *outlen);

/* gzip-compresses in into a malloc'd buffer (zlib, gzip wrapper). 0 or -1. */
int hs_gzip(const uint8_t *in, size_t inlen, uint8_t **out, size_t *outlen);

#endif
