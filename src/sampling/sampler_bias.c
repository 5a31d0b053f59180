/* sampler_bias.c: the JVM versions whose sampler is biased, and the note about it
 * (see sampler_bias.h for the derivation). */
#include "sampling/sampler_bias.h"

#include <math.h>
#include <stdio.h>

/* The first fixed feature release: JDK-8356372 was integrated in JDK 25. */
#define HS_SAMPLER_FIXED_IN 25

static int leading_number(const char *s, const char **end) {
    int n = 0, digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 6) {
        n = n * 10 + (*s - '0');
        s++;
        digits++;
    }
    *end = s;
    return digits ? n : -1;
}

int hs_java_feature_version(const char *version) {
    if (version == NULL) return -1;
    const char *rest;
    int first = leading_number(version, &rest);
    if (first == 1 && *rest == '.') { /* 1.8.0_x: the old scheme, feature second */
        int second = leading_number(rest + 1, &rest);
        return second > 0 ? second : -1;
    }
    return first > 0 ? first : -1;
}

/* The last feature release whose log2 table is filled only when sampling is first enabled
 * (JDK 11; 17 has a constant table; the releases between are not supported). */
#define HS_SAMPLER_LAZY_LOG_TABLE_UNTIL 11

int64_t hs_first_gap_mean(int feature, int64_t interval) {
    if (feature <= 0 || feature > HS_SAMPLER_LAZY_LOG_TABLE_UNTIL) return interval;
    return (int64_t)llround(2.0 * log(2.0) * (double)interval);
}

hs_sampler_bias hs_sampler_bias_of(int feature) {
    if (feature <= 0) return HS_SAMPLER_UNKNOWN;
    return feature < HS_SAMPLER_FIXED_IN ? HS_SAMPLER_OUTSIDE_TLAB : HS_SAMPLER_EXACT;
}

int hs_sampler_bias_note(hs_sampler_bias bias, int feature, char *buf, size_t len) {
    switch (bias) {
    case HS_SAMPLER_OUTSIDE_TLAB:
        return snprintf(buf, len,
                        "sampler bias: this JVM (JDK %d) has JDK-8356372 (fixed in JDK 25): "
                        "objects allocated outside a TLAB (large arrays, mostly) are sampled "
                        "too rarely and the allocations next to them in TLABs too often, so "
                        "per-site alloc/inuse estimates can be off (measured on JDK 11, 17 "
                        "and 21, a byte[65536] site interleaved with small arrays: 0.78-0.86 "
                        "and 1.8-2.0 of the truth at interval=512k, 0.97-1.06 and 1.02-1.11 "
                        "at 32k; the two sites' total 0.99-1.05); the JVM does not expose "
                        "what would correct it: use JDK 25+ for exact figures",
                        feature);
    case HS_SAMPLER_UNKNOWN:
        return snprintf(buf, len,
                        "sampler bias: the JVM's version is unknown; before JDK 25 "
                        "(JDK-8356372) objects allocated outside a TLAB are sampled too rarely");
    case HS_SAMPLER_EXACT:
    default:
        if (len) buf[0] = '\0';
        return 0;
    }
}

int hs_sampler_bias_note_for(const char *vm_version, char *buf, size_t len) {
    int feature = hs_java_feature_version(vm_version);
    return hs_sampler_bias_note(hs_sampler_bias_of(feature), feature, buf, len);
}
