/* live_age.c: age buckets of live samples and the per-site split by age (see live_age.h). */
#include "live/live_age.h"

#include <math.h>
#include <stdlib.h>

unsigned hs_age_bucket(uint32_t gcs) {
    unsigned b = 0;
    while (gcs > 1 && b < HS_AGE_BUCKETS - 1) {
        gcs >>= 1;
        b++;
    }
    return b;
}

int64_t hs_age_bucket_floor(unsigned i) { return (int64_t)1 << (i < HS_AGE_BUCKETS ? i : 0); }

static double usable(double w) { return isfinite(w) && w > 0 ? w : 0; }

void hs_age_site_add(hs_age_site *site, uint32_t gcs, uint32_t age_seconds, double weight) {
    unsigned i = hs_age_bucket(gcs);
    site->weight[i] += weight;
    site->seconds[i] += weight * age_seconds;
}

uint32_t hs_age_seconds(uint32_t born, uint32_t now) { return now > born ? now - born : 0; }

static int64_t mean_seconds(double weight, double seconds) {
    return usable(weight) > 0 ? (int64_t)llround(usable(seconds) / weight) : -1;
}

int64_t hs_age_mean_seconds(const hs_age_site *site, unsigned i) {
    return i < HS_AGE_BUCKETS ? mean_seconds(site->weight[i], site->seconds[i]) : -1;
}

int64_t hs_age_unsplit_mean_seconds(const hs_age_site *site) {
    return mean_seconds(site->unsplit_weight, site->unsplit_seconds);
}

static int has_inuse(const int64_t *v) { return v[2] || v[3]; }

void hs_age_split_integer(int64_t total, const double *weight, unsigned n, int64_t *out) {
    if (n > HS_AGE_BUCKETS) n = HS_AGE_BUCKETS;
    double sum = 0;
    for (unsigned i = 0; i < n; i++) sum += usable(weight[i]);
    int64_t given = 0;
    double frac[HS_AGE_BUCKETS] = {0};
    for (unsigned i = 0; i < n; i++) {
        double exact = sum > 0 ? (double)total * usable(weight[i]) / sum : 0;
        out[i] = (int64_t)floor(exact);
        frac[i] = exact - (double)out[i];
        given += out[i];
    }
    /* Hand the units floor() left out to the largest remainders, one each. */
    for (int64_t left = sum > 0 ? total - given : 0; left > 0; left--) {
        unsigned best = n;
        for (unsigned i = 0; i < n; i++)
            if (usable(weight[i]) > 0 && (best == n || frac[i] > frac[best])) best = i;
        if (best == n) break;
        out[best]++;
        frac[best] = -1;
    }
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

void hs_age_split(const hs_age_values *total, const double weight[HS_AGE_BUCKETS],
                  hs_age_split_result *out) {
    *out = (hs_age_split_result){.site = *total};
    double sum = 0;
    for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) sum += usable(weight[i]);
    if (sum <= 0) return;
    out->split = 1;
    /* in-use objects, in-use bytes, then the alloc values that mirror them */
    for (unsigned v = 2; v < 4; v++) {
        int64_t inuse_part[HS_AGE_BUCKETS], alloc_part[HS_AGE_BUCKETS];
        int64_t inuse = total->v[v] > 0 ? total->v[v] : 0;
        int64_t alloc = total->v[v - 2] > 0 ? total->v[v - 2] : 0;
        hs_age_split_integer(inuse, weight, HS_AGE_BUCKETS, inuse_part);
        hs_age_split_integer(min64(inuse, alloc), weight, HS_AGE_BUCKETS, alloc_part);
        out->site.v[v] = 0;
        for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) {
            out->age[i].v[v] = inuse_part[i];
            out->age[i].v[v - 2] = alloc_part[i];
            out->site.v[v - 2] -= alloc_part[i];
        }
    }
}

int hs_age_add_site(hs_profile *p, const uint32_t *locations, uint32_t depth,
                    const int64_t *values, uint32_t nvalues, int64_t object_size,
                    const hs_age_site *ages) {
    if (!ages || nvalues < 4)
        return hs_profile_add_sample(p, locations, depth, values, object_size);
    hs_age_split_result r;
    hs_age_split(&(const hs_age_values){{values[0], values[1], values[2], values[3]}}, ages->weight,
                 &r);
    int site_empty = !(r.site.v[0] || r.site.v[1] || r.site.v[2] || r.site.v[3]);
    hs_sample_ages site_labels = {.gc_age = 0, .age_seconds = -1};
    if (!r.split && has_inuse(r.site.v)) site_labels.age_seconds = hs_age_unsplit_mean_seconds(ages);
    int rc = r.split && site_empty ? 0
                                   : hs_profile_add_aged_sample(p, locations, depth, r.site.v,
                                                                object_size, &site_labels);
    for (unsigned i = 0; r.split && rc == 0 && i < HS_AGE_BUCKETS; i++) {
        const hs_age_values *a = &r.age[i];
        if (!(a->v[0] || a->v[1] || a->v[2] || a->v[3])) continue;
        hs_sample_ages labels = {.gc_age = hs_age_bucket_floor(i), .age_seconds = -1};
        if (has_inuse(a->v)) labels.age_seconds = hs_age_mean_seconds(ages, i);
        rc = hs_profile_add_aged_sample(p, locations, depth, a->v, object_size, &labels);
    }
    return rc;
}

double hs_age_share_at_least(const double weight[HS_AGE_BUCKETS], uint32_t min_age) {
    unsigned first = hs_age_bucket(min_age);
    double all = 0, old = 0;
    for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) {
        all += usable(weight[i]);
        if (i >= first) old += usable(weight[i]);
    }
    return all > 0 ? old / all : 0;
}

int hs_age_add_comment(hs_profile *p) {
    if (hs_profile_add_comment(
            p, "gc_age: in-use samples are split by GCs survived (label gc_age = 1, 2, 4, ... %d: "
               "the bucket's smallest age); an age sample's alloc values equal its in-use values, "
               "the site's unlabelled sample keeps the rest of its allocation",
            1 << (HS_AGE_BUCKETS - 1)) != 0)
        return -1;
    return hs_profile_add_comment(
        p, "age_seconds: a sample's weighted mean age at the dump (in a peak profile: at the "
           "peak), in whole seconds, of the tracked live objects it stands for (a mean: "
           "-tagfocus=age_seconds=3600: keeps the samples whose mean age is an hour or more)");
}
