/* profile_fixture.h: building blocks for the hs_profile fixtures of the profile, pprof
 * and collapsed tests.
 *
 * Header-only (static inline) because only test_*.c files become executables. The
 * helpers ignore the builder's return values: a fixture checks p->failed once at the
 * end (fixture_or_null). */
#ifndef HS_TEST_PROFILE_FIXTURE_H
#define HS_TEST_PROFILE_FIXTURE_H

#include <stdint.h>

#include "profile/profile.h"

/* Adds the first n (at most 4) sample types of Go's heap profiles, in Go's order:
 * alloc_objects/count, alloc_space/bytes, inuse_objects/count, inuse_space/bytes. */
static inline void add_heap_sample_types(hs_profile *p, int n) {
    static const char *const types[][2] = {
        {"alloc_objects", "count"},
        {"alloc_space", "bytes"},
        {"inuse_objects", "count"},
        {"inuse_space", "bytes"},
    };
    for (int i = 0; i < n && i < 4; i++) hs_profile_add_sample_type(p, types[i][0], types[i][1]);
}

/* A location at line in a new function that has a name and nothing else. */
static inline uint32_t add_frame(hs_profile *p, const char *name, int64_t line) {
    return hs_profile_add_location(p, hs_profile_add_function(p, name, "", "", 0), line);
}

/* p, when every builder call succeeded; otherwise NULL, and p is freed: a test must
 * never run on a fixture that is missing pieces. */
static inline hs_profile *fixture_or_null(hs_profile *p) {
    if (p && p->failed) {
        hs_profile_free(p);
        return NULL;
    }
    return p;
}

#endif
