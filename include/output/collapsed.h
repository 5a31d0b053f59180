/* collapsed.h: the "collapsed stack" text format that flamegraph.pl and speedscope read:
 * one line per distinct stack, frames root first separated by ';', a space, the value.
 * The allocated class is the last (leaf) frame. Samples with value 0 are left out. */
#ifndef HS_COLLAPSED_H
#define HS_COLLAPSED_H

#include <stddef.h>

#include "profile/profile.h"

/* Encodes the value at value_index of every sample; lines with equal stacks are merged.
 * Writes a malloc'd NUL-terminated text to *out. 0 or -1. */
int hs_collapsed_encode(const hs_profile *p, uint32_t value_index, char **out, size_t *outlen);

#endif
