/* test_pprof.c: the profile.proto encoder and gzip (src/output/pprof.c).
 *
 * Checked three ways: exact bytes for a tiny profile worked out by hand from the
 * protobuf spec; a round trip through an independent decoder (proto_decode.h) that
 * asserts every field and pprof's validity rules; and the reference reader, `go tool
 * pprof -raw`, when Go is installed. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "output/pprof.h"
#include "profile/profile.h"
#include "profile_fixture.h"
#include "proto_decode.h"
#include "unit.h"

/* ---- helpers ------------------------------------------------------------------------ */

static int string_is(const pd_profile *d, int64_t index, const char *expected) {
    const char *s = pd_string(d, index);
    return s && strcmp(s, expected) == 0;
}

static int encode_and_decode(const hs_profile *p, pd_profile *d) {
    uint8_t *buf;
    size_t len;
    if (hs_pprof_encode(p, &buf, &len) != 0) return -1;
    int rc = pd_decode_profile(buf, len, d);
    free(buf);
    return rc;
}

/* pprof's validity rules (profile.CheckValid) plus what our writer promises:
 * string_table[0] == "", no duplicate strings, ids non-zero and unique per kind,
 * every referenced id exists, one value per sample type, no unknown fields. */
static void assert_valid(const pd_profile *d) {
    CU_ASSERT_FATAL(d->nstrings > 0);
    CU_ASSERT_STRING_EQUAL(d->strings[0], "");
    int unique_strings = 1;
    for (size_t i = 0; i < d->nstrings; i++)
        for (size_t j = i + 1; j < d->nstrings; j++)
            if (strcmp(d->strings[i], d->strings[j]) == 0) unique_strings = 0;
    CU_ASSERT(unique_strings);
    CU_ASSERT_EQUAL(d->unknown_fields, 0);

    int ids_ok = 1, refs_ok = 1;
    for (size_t i = 0; i < d->nmappings; i++) {
        if (d->mappings[i].id == 0) ids_ok = 0;
        for (size_t j = i + 1; j < d->nmappings; j++)
            if (d->mappings[i].id == d->mappings[j].id) ids_ok = 0;
    }
    for (size_t i = 0; i < d->nfunctions; i++) {
        if (d->functions[i].id == 0) ids_ok = 0;
        for (size_t j = i + 1; j < d->nfunctions; j++)
            if (d->functions[i].id == d->functions[j].id) ids_ok = 0;
        if (!pd_string(d, d->functions[i].name) || !pd_string(d, d->functions[i].system_name) ||
            !pd_string(d, d->functions[i].filename))
            refs_ok = 0;
    }
    for (size_t i = 0; i < d->nlocations; i++) {
        const pd_location *loc = &d->locations[i];
        if (loc->id == 0) ids_ok = 0;
        for (size_t j = i + 1; j < d->nlocations; j++)
            if (loc->id == d->locations[j].id) ids_ok = 0;
        int mapping_found = 0;
        for (size_t m = 0; m < d->nmappings; m++) mapping_found |= d->mappings[m].id == loc->mapping_id;
        if (!mapping_found) refs_ok = 0;
        for (size_t l = 0; l < loc->nlines; l++) {
            int function_found = 0;
            for (size_t f = 0; f < d->nfunctions; f++)
                function_found |= d->functions[f].id == loc->lines[l].function_id;
            if (!function_found) refs_ok = 0;
        }
    }
    for (size_t i = 0; i < d->nsamples; i++) {
        const pd_sample *s = &d->samples[i];
        if (s->nvalues != d->nsample_types) refs_ok = 0;
        for (size_t k = 0; k < s->nlocation_ids; k++) {
            int found = 0;
            for (size_t l = 0; l < d->nlocations; l++) found |= d->locations[l].id == s->location_ids[k];
            if (!found) refs_ok = 0;
        }
        for (size_t k = 0; k < s->nlabels; k++)
            if (!pd_string(d, s->labels[k].key) || !pd_string(d, s->labels[k].num_unit)) refs_ok = 0;
    }
    for (size_t i = 0; i < d->ncomments; i++)
        if (!pd_string(d, d->comments[i])) refs_ok = 0;
    CU_ASSERT(ids_ok);
    CU_ASSERT(refs_ok);
}

/* Every field of d against the profile it was encoded from. */
static void assert_matches(const hs_profile *p, const pd_profile *d) {
    assert_valid(d);
    CU_ASSERT_EQUAL_FATAL(d->nsample_types, p->nsample_types);
    for (uint32_t i = 0; i < p->nsample_types; i++) {
        CU_ASSERT(string_is(d, d->sample_types[i].type, p->sample_types[i].type));
        CU_ASSERT(string_is(d, d->sample_types[i].unit, p->sample_types[i].unit));
    }

    CU_ASSERT_EQUAL_FATAL(d->nsamples, p->nsamples);
    int samples_ok = 1;
    for (uint32_t i = 0; i < p->nsamples; i++) {
        const hs_sample *want = &p->samples[i];
        const pd_sample *got = &d->samples[i];
        if (got->nlocation_ids != want->depth || got->nvalues != p->nsample_types) {
            samples_ok = 0;
            continue;
        }
        for (uint32_t k = 0; k < want->depth; k++)
            if (got->location_ids[k] != (uint64_t)want->locations[k] + 1) samples_ok = 0;
        for (uint32_t k = 0; k < p->nsample_types; k++)
            if (got->values[k] != want->values[k]) samples_ok = 0;
        size_t live_label = want->liveness ? 1 : 0; /* the last label */
        size_t string_labels = (want->label_key ? 1 : 0) + live_label;
        size_t nlabels = (want->object_size > 0) + (want->ages.gc_age > 0) +
                         (want->ages.age_seconds >= 0) + string_labels;
        size_t key_at = got->nlabels - 1 - live_label;
        if (want->label_key && (got->nlabels < 1 + live_label ||
                                !string_is(d, got->labels[key_at].key, want->label_key) ||
                                !string_is(d, got->labels[key_at].str, want->label_value)))
            samples_ok = 0;
        if (want->liveness && (got->nlabels < 1 ||
                               !string_is(d, got->labels[got->nlabels - 1].key, "liveness") ||
                               !string_is(d, got->labels[got->nlabels - 1].str, want->liveness)))
            samples_ok = 0;
        if (got->nlabels != nlabels) {
            samples_ok = 0;
            continue;
        }
        if (want->object_size > 0 &&
            (!string_is(d, got->labels[0].key, "bytes") || got->labels[0].str != 0 ||
             got->labels[0].num != want->object_size || !string_is(d, got->labels[0].num_unit, "bytes")))
            samples_ok = 0;
        size_t next = want->object_size > 0 ? 1 : 0;
        if (want->ages.gc_age > 0) { /* a numeric label without unit, after "bytes" */
            const pd_label *age = &got->labels[next++];
            if (!string_is(d, age->key, "gc_age") || age->str != 0 ||
                age->num != want->ages.gc_age || age->num_unit != 0)
                samples_ok = 0;
        }
        if (want->ages.age_seconds >= 0) { /* numeric, unit "seconds", after gc_age */
            const pd_label *age = &got->labels[next];
            if (!string_is(d, age->key, "age_seconds") || age->str != 0 ||
                age->num != want->ages.age_seconds || !string_is(d, age->num_unit, "seconds"))
                samples_ok = 0;
        }
    }
    CU_ASSERT(samples_ok);

    CU_ASSERT_EQUAL_FATAL(d->nmappings, 1);
    const pd_mapping *m = &d->mappings[0];
    CU_ASSERT_EQUAL(m->id, 1);
    CU_ASSERT(string_is(d, m->filename, "[jvm]"));
    CU_ASSERT_EQUAL(m->has_functions, 1);
    CU_ASSERT_EQUAL(m->has_filenames, 1);
    CU_ASSERT_EQUAL(m->has_line_numbers, 1);
    CU_ASSERT_EQUAL(m->has_inline_frames, 0);
    CU_ASSERT_EQUAL(m->memory_start, 0);
    CU_ASSERT_EQUAL(m->memory_limit, 0);

    CU_ASSERT_EQUAL_FATAL(d->nlocations, p->nlocations);
    int locations_ok = 1;
    for (uint32_t i = 0; i < p->nlocations; i++) {
        const pd_location *got = &d->locations[i];
        if (got->id != i + 1 || got->mapping_id != 1 || got->address != 0 || got->nlines != 1 ||
            got->is_folded || got->lines[0].function_id != (uint64_t)p->locations[i].function + 1 ||
            got->lines[0].line != p->locations[i].line || got->lines[0].column != 0)
            locations_ok = 0;
    }
    CU_ASSERT(locations_ok);

    CU_ASSERT_EQUAL_FATAL(d->nfunctions, p->nfunctions);
    int functions_ok = 1;
    for (uint32_t i = 0; i < p->nfunctions; i++) {
        const pd_function *got = &d->functions[i];
        const hs_function *want = &p->functions[i];
        if (got->id != i + 1 || !string_is(d, got->name, want->name) ||
            !string_is(d, got->system_name, want->system_name) || !string_is(d, got->filename, want->filename) ||
            got->start_line != want->start_line)
            functions_ok = 0;
    }
    CU_ASSERT(functions_ok);

    CU_ASSERT_EQUAL(d->time_nanos, p->time_nanos);
    CU_ASSERT_EQUAL(d->duration_nanos, p->duration_nanos);
    CU_ASSERT_EQUAL(d->period, p->period);
    if (p->period_type.type) {
        CU_ASSERT(d->has_period_type);
        CU_ASSERT(string_is(d, d->period_type.type, p->period_type.type));
        CU_ASSERT(string_is(d, d->period_type.unit, p->period_type.unit));
    }
    CU_ASSERT_EQUAL_FATAL(d->ncomments, p->ncomments);
    for (uint32_t i = 0; i < p->ncomments; i++) CU_ASSERT(string_is(d, d->comments[i], p->comments[i]));
    if (p->default_sample_type) {
        CU_ASSERT(string_is(d, d->default_sample_type, p->default_sample_type));
    } else {
        CU_ASSERT_EQUAL(d->default_sample_type, 0);
    }
}

/* Encodes p, decodes it into d (to be freed with pd_free_profile) and checks every field
 * of d against p. */
static void assert_round_trip(const hs_profile *p, pd_profile *d) {
    CU_ASSERT_EQUAL_FATAL(encode_and_decode(p, d), 0);
    assert_matches(p, d);
}

/* A heap profile shaped like the agent's: Go's four sample types, a class pseudo-frame
 * as leaf, a method with two lines, labelled and unlabelled samples. */
static hs_profile *make_heap_profile(void) {
    hs_profile *p = hs_profile_new();
    if (!p) return NULL;
    add_heap_sample_types(p, 4);
    hs_profile_set_default_sample_type(p, "inuse_space");
    hs_profile_set_period(p, "space", "bytes", 524288);
    p->time_nanos = 1700000000123456789LL;
    p->duration_nanos = 5000000000LL;

    uint32_t bytes_cls = hs_profile_add_function(p, "byte[]", "[B", "", 0);
    uint32_t grow = hs_profile_add_function(p, "java.util.ArrayList.grow",
                                            "java/util/ArrayList.grow(I)[Ljava/lang/Object;",
                                            "java/util/ArrayList.java", 233);
    uint32_t main_fn = hs_profile_add_function(p, "com.example.Main.main", "com/example/Main.main([Ljava/lang/String;)V",
                                               "com/example/Main.java", 10);
    uint32_t string_cls = hs_profile_add_function(p, "java.lang.String", "Ljava/lang/String;", "", 0);

    uint32_t l_bytes = hs_profile_add_location(p, bytes_cls, 0);
    uint32_t l_grow = hs_profile_add_location(p, grow, 237);
    uint32_t l_main12 = hs_profile_add_location(p, main_fn, 12);
    uint32_t l_main15 = hs_profile_add_location(p, main_fn, 15);
    uint32_t l_string = hs_profile_add_location(p, string_cls, 0);

    uint32_t s0[] = {l_bytes, l_grow, l_main12};
    uint32_t s1[] = {l_string, l_main12};
    uint32_t s2[] = {l_bytes, l_main15};
    hs_profile_add_sample(p, s0, 3, (const int64_t[]){1, 1024, 1, 1024}, 1024);
    hs_profile_add_sample(p, s1, 2, (const int64_t[]){3, 72, 0, 0}, 24);
    hs_profile_add_sample(p, s2, 2, (const int64_t[]){2, 48, 2, 48}, 0);
    hs_profile_add_aged_sample(p, s0, 3, (const int64_t[]){4, 4096, 4, 4096}, 1024,
                               &(hs_sample_ages){.gc_age = 8, .age_seconds = 3725});
    hs_profile_add_aged_sample(p, s2, 2, (const int64_t[]){1, 24, 1, 24}, 0,
                               &(hs_sample_ages){.gc_age = 2, .age_seconds = 0});
    hs_profile_add_aged_sample(p, s1, 2, (const int64_t[]){1, 24, 0, 0}, 0,
                               &(hs_sample_ages){.gc_age = 4, .age_seconds = -1});
    hs_profile_add_comment(p, "heapsampler %s", "0.1.0");
    hs_profile_add_comment(p, "interval=%d", 524288);
    return fixture_or_null(p);
}

/* ---- tests ------------------------------------------------------------------------ */

/* Bytes worked out by hand from the protobuf encoding rules: catches a mistake the
 * encoder and the test decoder might share. */
static void test_exact_bytes_of_a_tiny_profile(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_profile_add_sample_type(p, "a", "b");
    uint32_t f = hs_profile_add_function(p, "f", "", "", 0);
    uint32_t loc = hs_profile_add_location(p, f, 300);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){300}, 0);
    static const uint8_t expected[] = {
        0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,                   /* sample_type {type 1, unit 2} */
        0x12, 0x07, 0x0a, 0x01, 0x01, 0x12, 0x02, 0xac, 0x02, /* sample {location_id [1], value [300]} */
        0x1a, 0x0a, 0x08, 0x01, 0x28, 0x03, 0x38, 0x01, 0x40, 0x01, 0x48, 0x01, /* mapping */
        0x22, 0x0b, 0x08, 0x01, 0x10, 0x01, 0x22, 0x05, 0x08, 0x01, 0x10, 0xac, 0x02, /* location */
        0x2a, 0x04, 0x08, 0x01, 0x10, 0x04,                   /* function {id 1, name 4} */
        0x32, 0x00,                                           /* string_table: "" */
        0x32, 0x01, 'a', 0x32, 0x01, 'b',                     /* "a", "b" */
        0x32, 0x05, '[', 'j', 'v', 'm', ']', 0x32, 0x01, 'f', /* "[jvm]", "f" */
    };
    uint8_t *buf;
    size_t len;
    CU_ASSERT_EQUAL_FATAL(hs_pprof_encode(p, &buf, &len), 0);
    CU_ASSERT_EQUAL(len, sizeof expected);
    CU_ASSERT(len == sizeof expected && memcmp(buf, expected, len) == 0);
    free(buf);
    hs_profile_free(p);
}

static void test_round_trip_heap_profile(void) {
    hs_profile *p = make_heap_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pd_profile d;
    assert_round_trip(p, &d);

    /* A few fields spelled out, independent of the profile they came from. */
    CU_ASSERT(string_is(&d, d.sample_types[0].type, "alloc_objects"));
    CU_ASSERT(string_is(&d, d.sample_types[3].type, "inuse_space"));
    CU_ASSERT(string_is(&d, d.sample_types[3].unit, "bytes"));
    CU_ASSERT(string_is(&d, d.default_sample_type, "inuse_space"));
    CU_ASSERT(string_is(&d, d.period_type.type, "space"));
    CU_ASSERT_EQUAL(d.period, 524288);
    CU_ASSERT_EQUAL(d.time_nanos, 1700000000123456789LL);
    CU_ASSERT_EQUAL(d.duration_nanos, 5000000000LL);
    CU_ASSERT(string_is(&d, d.functions[1].name, "java.util.ArrayList.grow"));
    CU_ASSERT(string_is(&d, d.functions[1].filename, "java/util/ArrayList.java"));
    CU_ASSERT_EQUAL(d.functions[1].start_line, 233);
    CU_ASSERT_EQUAL(d.samples[0].nlocation_ids, 3);
    CU_ASSERT_EQUAL(d.samples[0].location_ids[0], 1); /* leaf first: the byte[] frame */
    CU_ASSERT_EQUAL(d.samples[0].values[1], 1024);
    CU_ASSERT_EQUAL(d.samples[1].labels[0].num, 24);
    CU_ASSERT_EQUAL(d.samples[2].nlabels, 0);
    CU_ASSERT(string_is(&d, d.comments[1], "interval=524288"));
    /* "bytes" is both a unit and the label key; "" serves every empty filename. */
    size_t bytes_count = 0, empty_count = 0;
    for (size_t i = 0; i < d.nstrings; i++) {
        bytes_count += strcmp(d.strings[i], "bytes") == 0;
        empty_count += d.strings[i][0] == '\0';
    }
    CU_ASSERT_EQUAL(bytes_count, 1);
    CU_ASSERT_EQUAL(empty_count, 1);
    pd_free_profile(&d);
    hs_profile_free(p);
}

/* A string label (threads=true) and names in modified UTF-8, as JVMTI gives them. */
static void test_string_label_and_utf8_names(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_profile_add_sample_type(p, "alloc_space", "bytes");
    uint32_t f = hs_profile_add_function(p, "p.\xED\xA1\x80\xED\xB0\x80.m", "s", "a\xC0\x80.java", 0);
    uint32_t loc = hs_profile_add_location(p, f, 1);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){64}, 16);
    CU_ASSERT_EQUAL(hs_profile_label_samples(p, p->nsamples - 1, "thread", "worker-\xED\xA0\xBD\xED\xB8\x80"), 0);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){32}, 0);
    hs_profile_add_comment(p, "file=/tmp/\xFF");
    pd_profile d;
    assert_round_trip(p, &d);
    CU_ASSERT(string_is(&d, d.functions[0].name, "p.\xF0\xA0\x80\x80.m"));
    CU_ASSERT(string_is(&d, d.functions[0].filename, "a\xEF\xBF\xBD.java"));
    CU_ASSERT(string_is(&d, d.comments[0], "file=/tmp/\xEF\xBF\xBD"));
    CU_ASSERT_EQUAL_FATAL(d.samples[0].nlabels, 2);
    CU_ASSERT(string_is(&d, d.samples[0].labels[1].key, "thread"));
    CU_ASSERT(string_is(&d, d.samples[0].labels[1].str, "worker-\xF0\x9F\x98\x80"));
    CU_ASSERT_EQUAL(d.samples[1].nlabels, 0);
    pd_free_profile(&d);
    hs_profile_free(p);
}

/* The liveness label (liveness.h) after the thread label; samples without it have none. */
static void test_liveness_label(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_profile_add_sample_type(p, "inuse_space", "bytes");
    uint32_t f = hs_profile_add_function(p, "m", "m", "M.java", 0);
    uint32_t loc = hs_profile_add_location(p, f, 3);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){640}, 64);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){128}, 64);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){0}, 64);
    CU_ASSERT_EQUAL(hs_profile_label_samples(p, 0, "thread", "main"), 0);
    p->samples[0].liveness = "confirmed";
    p->samples[1].liveness = "unjudged";
    pd_profile d;
    assert_round_trip(p, &d);
    CU_ASSERT_EQUAL_FATAL(d.samples[0].nlabels, 3);
    CU_ASSERT(string_is(&d, d.samples[0].labels[1].key, "thread"));
    CU_ASSERT(string_is(&d, d.samples[0].labels[2].key, "liveness"));
    CU_ASSERT(string_is(&d, d.samples[0].labels[2].str, "confirmed"));
    CU_ASSERT(string_is(&d, d.samples[1].labels[2].str, "unjudged"));
    CU_ASSERT_EQUAL(d.samples[2].nlabels, 2);
    pd_free_profile(&d);
    hs_profile_free(p);
}

static void test_empty_profile_is_valid(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pd_profile d;
    assert_round_trip(p, &d);
    CU_ASSERT_EQUAL(d.nsamples, 0);
    CU_ASSERT_FALSE(d.has_period_type);
    pd_free_profile(&d);
    hs_profile_free(p);
}

/* int64 values are plain varints of the two's complement: 0 and 127 take one byte,
 * 128 two, INT64_MAX nine, and any negative number ten. */
static void test_varint_edge_cases(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int i = 0; i < 4; i++) hs_profile_add_sample_type(p, "t", "u");
    uint32_t f = hs_profile_add_function(p, "f", "", "", INT64_MAX);
    uint32_t loc = hs_profile_add_location(p, f, -1);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){0, 127, 128, INT64_MAX}, 0);
    hs_profile_add_sample(p, &loc, 1, (const int64_t[]){-1, INT64_MIN, 1, 16384}, 1);
    pd_profile d;
    assert_round_trip(p, &d);
    CU_ASSERT_EQUAL(d.samples[0].values_wire_bytes, 1 + 1 + 2 + 9);
    CU_ASSERT_EQUAL(d.samples[1].values_wire_bytes, 10 + 10 + 1 + 3);
    CU_ASSERT_EQUAL(d.samples[0].values[3], INT64_MAX);
    CU_ASSERT_EQUAL(d.samples[1].values[0], -1);
    CU_ASSERT_EQUAL(d.samples[1].values[1], INT64_MIN);
    CU_ASSERT_EQUAL(d.locations[0].lines[0].line, -1);
    CU_ASSERT_EQUAL(d.functions[0].start_line, INT64_MAX);
    pd_free_profile(&d);
    hs_profile_free(p);
}

/* Hundreds of functions, locations and strings: multi-byte ids and string indexes,
 * and string-table growth with deduplication (every filename is shared). */
static void test_large_profile_round_trip(void) {
    enum { FUNCTIONS = 700, SAMPLES = 3000 };
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 2);
    for (int i = 0; i < FUNCTIONS; i++) {
        char name[48], sys[64];
        snprintf(name, sizeof name, "pkg.Class%d.method", i);
        snprintf(sys, sizeof sys, "pkg/Class%d.method()V", i);
        hs_profile_add_function(p, name, sys, i % 2 ? "pkg/Odd.java" : "pkg/Even.java", i);
        hs_profile_add_location(p, (uint32_t)i, i * 3);
    }
    for (int i = 0; i < SAMPLES; i++) {
        uint32_t stack[8];
        for (int k = 0; k < 8; k++) stack[k] = (uint32_t)((i * 7 + k * 131) % FUNCTIONS);
        hs_profile_add_sample(p, stack, 1 + (uint32_t)(i % 8), (const int64_t[]){i, (int64_t)i << 20}, i % 5);
    }
    CU_ASSERT_FALSE_FATAL(p->failed);
    pd_profile d;
    assert_round_trip(p, &d);
    /* "", alloc_objects, count, alloc_space, bytes, [jvm], 2 filenames, 2 per function */
    CU_ASSERT_EQUAL(d.nstrings, 8 + 2 * FUNCTIONS);
    pd_free_profile(&d);
    hs_profile_free(p);
}

static void test_refuses_failed_or_inconsistent_profile(void) {
    hs_profile *p = make_heap_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint8_t *buf = (uint8_t *)"not touched";
    size_t len = 99;
    p->failed = 1; /* what the builder sets after ENOMEM */
    CU_ASSERT_EQUAL(hs_pprof_encode(p, &buf, &len), -1);
    CU_ASSERT_PTR_NULL(buf);
    CU_ASSERT_EQUAL(len, 0);
    p->failed = 0;
    /* A location that points past the functions would make pprof reject the file. */
    p->locations[0].function = p->nfunctions;
    errno = 0;
    CU_ASSERT_EQUAL(hs_pprof_encode(p, &buf, &len), -1);
    CU_ASSERT_EQUAL(errno, EINVAL);
    hs_profile_free(p);
}

/* Inflates a gzip stream (windowBits 15 + 16 accepts only the gzip wrapper). */
static int gunzip(const uint8_t *in, size_t inlen, uint8_t **out, size_t *outlen) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK) return -1;
    size_t cap = inlen * 4 + 1024, len = 0;
    uint8_t *buf = malloc(cap);
    int rc = buf ? Z_OK : Z_MEM_ERROR;
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)inlen;
    while (rc == Z_OK) {
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown) {
                rc = Z_MEM_ERROR;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        zs.next_out = buf + len;
        zs.avail_out = (uInt)(cap - len);
        rc = inflate(&zs, Z_NO_FLUSH);
        len = cap - zs.avail_out;
    }
    int trailing = zs.avail_in != 0;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || trailing) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outlen = len;
    return 0;
}

static void assert_gzip_round_trip(const uint8_t *data, size_t len) {
    uint8_t *gz = NULL, *back = NULL;
    size_t gzlen, backlen;
    CU_ASSERT_EQUAL_FATAL(hs_gzip(data, len, &gz, &gzlen), 0);
    CU_ASSERT_FATAL(gzlen >= 18); /* 10-byte header, 8-byte trailer */
    CU_ASSERT(gz[0] == 0x1f && gz[1] == 0x8b && gz[2] == 8); /* gzip magic, deflate */
    CU_ASSERT_EQUAL_FATAL(gunzip(gz, gzlen, &back, &backlen), 0);
    CU_ASSERT_EQUAL(backlen, len);
    CU_ASSERT(backlen == len && (len == 0 || memcmp(back, data, len) == 0));
    free(gz);
    free(back);
}

static void test_gzip_round_trip(void) {
    hs_profile *p = make_heap_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint8_t *pb;
    size_t pblen;
    CU_ASSERT_EQUAL_FATAL(hs_pprof_encode(p, &pb, &pblen), 0);
    assert_gzip_round_trip(pb, pblen);
    free(pb);
    hs_profile_free(p);

    assert_gzip_round_trip(NULL, 0);
    assert_gzip_round_trip((const uint8_t *)"x", 1);
    /* 2 MiB of poorly compressible bytes: many deflate blocks, output near input size */
    size_t big = 2u << 20;
    uint8_t *noise = malloc(big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(noise);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < big; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        noise[i] = (uint8_t)x;
    }
    assert_gzip_round_trip(noise, big);
    free(noise);
}

/* ---- the reference reader ---------------------------------------------------------- */

/* Runs cmd, capturing stdout and stderr into a malloc'd string. Returns the exit code. */
static int run_capture(const char *cmd, char **output) {
    *output = NULL;
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - len < 4096) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) break;
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0) break;
        len += n;
    }
    int status = pclose(f);
    if (buf) buf[len] = '\0';
    *output = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_go_tool_pprof_reads_it(void) {
    if (system("command -v go >/dev/null 2>&1") != 0) {
        printf("\n    NOTE: `go` not installed: skipping the check with go tool pprof ");
        CU_PASS("go not installed");
        return;
    }
    hs_profile *p = make_heap_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint8_t *pb, *gz;
    size_t pblen, gzlen;
    CU_ASSERT_EQUAL_FATAL(hs_pprof_encode(p, &pb, &pblen), 0);
    CU_ASSERT_EQUAL_FATAL(hs_gzip(pb, pblen, &gz, &gzlen), 0);
    free(pb);
    hs_profile_free(p);

    char dir[] = "/tmp/hs_test_pprof.XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[64], cmd[256];
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(gz, 1, gzlen, f), gzlen);
    CU_ASSERT_EQUAL(fclose(f), 0);
    free(gz);

    /* HOME and GOCACHE may be unset under ctest; go refuses to start without them. */
    snprintf(cmd, sizeof cmd, "HOME=%s GOCACHE=%s/cache go tool pprof -raw %s 2>&1", dir, dir, path);
    char *out;
    int rc = run_capture(cmd, &out);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NULL(strstr(out, "unrecognized"));
    /* the fields as the reference reader understood them */
    static const char *const expected[] = {
        "Comment: heapsampler 0.1.0",
        "Comment: interval=524288",
        "PeriodType: space bytes",
        "Period: 524288",
        "Duration: 5s",
        "alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes[dflt]",
        "1       1024          1       1024: 1 2 3 \n                bytes:[1024 bytes]",
        "3         72          0          0: 4 3 \n                bytes:[24 bytes]",
        "2         48          2         48: 1 5 \n",
        "1: 0x0 M=1 byte[] :0 s=0([B)",
        "2: 0x0 M=1 java.util.ArrayList.grow java/util/ArrayList.java:237 "
        "s=233(java/util/ArrayList.grow(I)[Ljava/lang/Object;)",
        "5: 0x0 M=1 com.example.Main.main com/example/Main.java:15 s=10(",
        "1: 0x0/0x0/0x0 [jvm]  [FN][FL][LN]",
    };
    int all_found = 1;
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
        if (!strstr(out, expected[i])) {
            printf("\n    missing from go tool pprof -raw: \"%s\"", expected[i]);
            all_found = 0;
        }
    }
    CU_ASSERT(all_found);
    if (rc != 0 || !all_found || strstr(out, "unrecognized")) printf("\n%s\n", out);
    free(out);

    /* -traces walks the stacks: the class pseudo-frame is the leaf, printed first. */
    snprintf(cmd, sizeof cmd, "HOME=%s GOCACHE=%s/cache go tool pprof -traces -sample_index=alloc_space %s 2>&1",
             dir, dir, path);
    rc = run_capture(cmd, &out);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    const char *leaf = strstr(out, "byte[]");
    const char *caller = strstr(out, "java.util.ArrayList.grow");
    CU_ASSERT(leaf && caller && leaf < caller);
    free(out);

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static CU_TestInfo pprof_tests[] = {
    {"exact bytes of a tiny profile", test_exact_bytes_of_a_tiny_profile},
    {"heap profile round trip", test_round_trip_heap_profile},
    {"empty profile is valid", test_empty_profile_is_valid},
    {"string label and UTF-8 names", test_string_label_and_utf8_names},
    {"liveness label", test_liveness_label},
    {"varint edge cases", test_varint_edge_cases},
    {"large profile round trip", test_large_profile_round_trip},
    {"refuses failed or inconsistent profiles", test_refuses_failed_or_inconsistent_profile},
    {"gzip round trip", test_gzip_round_trip},
    {"go tool pprof reads it", test_go_tool_pprof_reads_it},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("pprof", pprof_tests); }
