/* proto_decode.h: a test-only decoder for profile.proto (github.com/google/pprof).
 *
 * Written independently of src/output/pprof.c so that the unit tests check the encoder
 * against the wire format rather than against itself: it accepts repeated scalars
 * both packed and unpacked (as any protobuf reader must), skips fixed-width fields,
 * rejects malformed input (truncated fields, overlong varints, group wire types), and
 * counts the fields it does not know so that a test can insist there are none.
 * Header-only; every function is static inline so that each test uses what it needs. */
#ifndef HS_TEST_PROTO_DECODE_H
#define HS_TEST_PROTO_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t type, unit; /* string table indexes */
} pd_value_type;

typedef struct {
    int64_t key, str, num, num_unit;
} pd_label;

typedef struct {
    uint64_t *location_ids;
    size_t nlocation_ids;
    int64_t *values;
    size_t nvalues;
    pd_label *labels;
    size_t nlabels;
    size_t values_wire_bytes; /* bytes the value field(s) occupy, varints only */
} pd_sample;

typedef struct {
    uint64_t id, memory_start, memory_limit, file_offset;
    int64_t filename, build_id;
    int has_functions, has_filenames, has_line_numbers, has_inline_frames;
} pd_mapping;

typedef struct {
    uint64_t function_id;
    int64_t line, column;
} pd_line;

typedef struct {
    uint64_t id, mapping_id, address;
    pd_line *lines;
    size_t nlines;
    int is_folded;
} pd_location;

typedef struct {
    uint64_t id;
    int64_t name, system_name, filename, start_line;
} pd_function;

typedef struct {
    pd_value_type *sample_types;
    size_t nsample_types;
    pd_sample *samples;
    size_t nsamples;
    pd_mapping *mappings;
    size_t nmappings;
    pd_location *locations;
    size_t nlocations;
    pd_function *functions;
    size_t nfunctions;
    char **strings; /* NUL-terminated copies */
    size_t nstrings;
    int64_t time_nanos, duration_nanos, period;
    pd_value_type period_type;
    int has_period_type;
    int64_t *comments;
    size_t ncomments;
    int64_t default_sample_type;
    size_t unknown_fields; /* fields with a number this decoder does not know */
} pd_profile;

/* A view of bytes still to be read. */
typedef struct {
    const uint8_t *p, *end;
} pd_reader;

/* Reads a base-128 varint. Rejects truncation and varints longer than 64 bits. */
static inline int pd_read_varint(pd_reader *r, uint64_t *out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end) return -1;
        uint8_t byte = *r->p++;
        if (shift == 63 && byte > 1) return -1; /* bits beyond 64 */
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* One field: its number, wire type, and either its varint value or its payload. */
typedef struct {
    uint64_t number;
    int wire_type;
    uint64_t varint;
    pd_reader payload; /* wire type 2 */
} pd_field;

/* Reads the next field. Returns 1, 0 at the end of input, -1 on malformed input. */
static inline int pd_next_field(pd_reader *r, pd_field *f) {
    memset(f, 0, sizeof *f);
    if (r->p == r->end) return 0;
    uint64_t key, len;
    if (pd_read_varint(r, &key) != 0) return -1;
    f->number = key >> 3;
    f->wire_type = (int)(key & 7);
    if (f->number == 0) return -1;
    switch (f->wire_type) {
    case 0:
        return pd_read_varint(r, &f->varint) == 0 ? 1 : -1;
    case 1: /* fixed64: not used by profile.proto, skipped */
        if (r->end - r->p < 8) return -1;
        r->p += 8;
        return 1;
    case 2:
        if (pd_read_varint(r, &len) != 0 || len > (uint64_t)(r->end - r->p)) return -1;
        f->payload.p = r->p;
        f->payload.end = r->p + len;
        r->p += len;
        return 1;
    case 5: /* fixed32 */
        if (r->end - r->p < 4) return -1;
        r->p += 4;
        return 1;
    default: /* 3, 4 (groups) and 6, 7 do not occur in proto3 */
        return -1;
    }
}

/* Appends value to a growable array (array, n); returns -1 from the caller on ENOMEM. */
#define PD_PUSH_OR_FAIL(array, n, value)                                  \
    do {                                                                  \
        void *grown_ = realloc((array), ((n) + 1) * sizeof *(array));     \
        if (!grown_) return -1;                                           \
        (array) = grown_;                                                 \
        (array)[(n)++] = (value);                                         \
    } while (0)

static inline size_t pd_varint_size(uint64_t v) {
    size_t len = 1;
    for (; v >= 0x80; v >>= 7) len++;
    return len;
}

/* The values of a repeated uint64/int64 field, packed (wire type 2) or not (wire
 * type 0), into a malloc'd array. *wire_bytes, when given, accumulates the bytes the
 * varints occupy. 0 or -1. */
static inline int pd_read_repeated(const pd_field *f, uint64_t **out, size_t *n, size_t *wire_bytes) {
    uint64_t *vals = NULL;
    size_t count = 0;
    *out = NULL;
    *n = 0;
    if (f->wire_type == 0) {
        if (wire_bytes) *wire_bytes += pd_varint_size(f->varint);
        PD_PUSH_OR_FAIL(vals, count, f->varint);
    } else if (f->wire_type == 2) {
        pd_reader r = f->payload;
        if (wire_bytes) *wire_bytes += (size_t)(r.end - r.p);
        while (r.p < r.end) {
            uint64_t v;
            if (pd_read_varint(&r, &v) != 0) {
                free(vals);
                return -1;
            }
            void *grown = realloc(vals, (count + 1) * sizeof *vals);
            if (!grown) {
                free(vals);
                return -1;
            }
            vals = grown;
            vals[count++] = v;
        }
    } else {
        return -1;
    }
    *out = vals;
    *n = count;
    return 0;
}

/* Appends the values of a repeated field to (array, n), converting each to the
 * array's element type; returns -1 from the caller on error. */
#define PD_APPEND_REPEATED_OR_FAIL(f, array, n, wire_bytes)                  \
    do {                                                                     \
        uint64_t *vals_;                                                     \
        size_t nvals_;                                                       \
        if (pd_read_repeated((f), &vals_, &nvals_, (wire_bytes)) != 0)       \
            return -1;                                                       \
        for (size_t i_ = 0; i_ < nvals_; i_++) {                             \
            void *grown_ = realloc((array), ((n) + 1) * sizeof *(array));    \
            if (!grown_) {                                                   \
                free(vals_);                                                 \
                return -1;                                                   \
            }                                                                \
            (array) = grown_;                                                \
            (array)[(n)++] = vals_[i_]; /* int64 fields: two's complement */ \
        }                                                                    \
        free(vals_);                                                         \
    } while (0)

/* Scalar fields must come with the varint wire type. */
#define PD_VARINT(f, dst)                                 \
    do {                                                  \
        if ((f)->wire_type != 0) return -1;               \
        (dst) = (f)->varint; /* int64 fields: two's complement */ \
    } while (0)

static inline int pd_decode_value_type(pd_reader r, pd_value_type *vt, size_t *unknown) {
    pd_field f;
    int rc;
    memset(vt, 0, sizeof *vt);
    while ((rc = pd_next_field(&r, &f)) == 1) {
        if (f.number == 1) PD_VARINT(&f, vt->type);
        else if (f.number == 2) PD_VARINT(&f, vt->unit);
        else (*unknown)++;
    }
    return rc;
}

static inline int pd_decode_label(pd_reader r, pd_label *l, size_t *unknown) {
    pd_field f;
    int rc;
    memset(l, 0, sizeof *l);
    while ((rc = pd_next_field(&r, &f)) == 1) {
        if (f.number == 1) PD_VARINT(&f, l->key);
        else if (f.number == 2) PD_VARINT(&f, l->str);
        else if (f.number == 3) PD_VARINT(&f, l->num);
        else if (f.number == 4) PD_VARINT(&f, l->num_unit);
        else (*unknown)++;
    }
    return rc;
}

static inline int pd_decode_sample(pd_reader r, pd_sample *s, size_t *unknown) {
    pd_field f;
    int rc;
    while ((rc = pd_next_field(&r, &f)) == 1) {
        if (f.number == 1) {
            PD_APPEND_REPEATED_OR_FAIL(&f, s->location_ids, s->nlocation_ids, NULL);
        } else if (f.number == 2) {
            PD_APPEND_REPEATED_OR_FAIL(&f, s->values, s->nvalues, &s->values_wire_bytes);
        } else if (f.number == 3) {
            pd_label l;
            if (f.wire_type != 2 || pd_decode_label(f.payload, &l, unknown) != 0) return -1;
            PD_PUSH_OR_FAIL(s->labels, s->nlabels, l);
        } else {
            (*unknown)++;
        }
    }
    return rc;
}

static inline int pd_decode_mapping(pd_reader r, pd_mapping *m, size_t *unknown) {
    pd_field f;
    int rc;
    memset(m, 0, sizeof *m);
    while ((rc = pd_next_field(&r, &f)) == 1) {
        switch (f.number) {
        case 1: PD_VARINT(&f, m->id); break;
        case 2: PD_VARINT(&f, m->memory_start); break;
        case 3: PD_VARINT(&f, m->memory_limit); break;
        case 4: PD_VARINT(&f, m->file_offset); break;
        case 5: PD_VARINT(&f, m->filename); break;
        case 6: PD_VARINT(&f, m->build_id); break;
        case 7: PD_VARINT(&f, m->has_functions); break;
        case 8: PD_VARINT(&f, m->has_filenames); break;
        case 9: PD_VARINT(&f, m->has_line_numbers); break;
        case 10: PD_VARINT(&f, m->has_inline_frames); break;
        default: (*unknown)++;
        }
    }
    return rc;
}

static inline int pd_decode_line(pd_reader r, pd_line *l, size_t *unknown) {
    pd_field f;
    int rc;
    memset(l, 0, sizeof *l);
    while ((rc = pd_next_field(&r, &f)) == 1) {
        if (f.number == 1) PD_VARINT(&f, l->function_id);
        else if (f.number == 2) PD_VARINT(&f, l->line);
        else if (f.number == 3) PD_VARINT(&f, l->column);
        else (*unknown)++;
    }
    return rc;
}

static inline int pd_decode_location(pd_reader r, pd_location *loc, size_t *unknown) {
    pd_field f;
    int rc;
    while ((rc = pd_next_field(&r, &f)) == 1) {
        if (f.number == 1) PD_VARINT(&f, loc->id);
        else if (f.number == 2) PD_VARINT(&f, loc->mapping_id);
        else if (f.number == 3) PD_VARINT(&f, loc->address);
        else if (f.number == 4) {
            pd_line l;
            if (f.wire_type != 2 || pd_decode_line(f.payload, &l, unknown) != 0) return -1;
            PD_PUSH_OR_FAIL(loc->lines, loc->nlines, l);
        } else if (f.number == 5) PD_VARINT(&f, loc->is_folded);
        else (*unknown)++;
    }
    return rc;
}

static inline int pd_decode_function(pd_reader r, pd_function *fn, size_t *unknown) {
    pd_field f;
    int rc;
    memset(fn, 0, sizeof *fn);
    while ((rc = pd_next_field(&r, &f)) == 1) {
        switch (f.number) {
        case 1: PD_VARINT(&f, fn->id); break;
        case 2: PD_VARINT(&f, fn->name); break;
        case 3: PD_VARINT(&f, fn->system_name); break;
        case 4: PD_VARINT(&f, fn->filename); break;
        case 5: PD_VARINT(&f, fn->start_line); break;
        default: (*unknown)++;
        }
    }
    return rc;
}

static inline void pd_free_profile(pd_profile *pr) {
    for (size_t i = 0; i < pr->nsamples; i++) {
        free(pr->samples[i].location_ids);
        free(pr->samples[i].values);
        free(pr->samples[i].labels);
    }
    for (size_t i = 0; i < pr->nlocations; i++) free(pr->locations[i].lines);
    for (size_t i = 0; i < pr->nstrings; i++) free(pr->strings[i]);
    free(pr->sample_types);
    free(pr->samples);
    free(pr->mappings);
    free(pr->locations);
    free(pr->functions);
    free(pr->strings);
    free(pr->comments);
    memset(pr, 0, sizeof *pr);
}

/* One top-level Profile field. 0 or -1. */
static inline int pd_decode_profile_field(const pd_field *f, pd_profile *pr) {
    size_t *unknown = &pr->unknown_fields;
    int is_message = f->wire_type == 2;
    switch (f->number) {
    case 1: {
        pd_value_type vt;
        if (!is_message || pd_decode_value_type(f->payload, &vt, unknown) != 0) return -1;
        PD_PUSH_OR_FAIL(pr->sample_types, pr->nsample_types, vt);
        return 0;
    }
    case 2: {
        pd_sample s;
        memset(&s, 0, sizeof s);
        PD_PUSH_OR_FAIL(pr->samples, pr->nsamples, s);
        return is_message ? pd_decode_sample(f->payload, &pr->samples[pr->nsamples - 1], unknown) : -1;
    }
    case 3: {
        pd_mapping m;
        if (!is_message || pd_decode_mapping(f->payload, &m, unknown) != 0) return -1;
        PD_PUSH_OR_FAIL(pr->mappings, pr->nmappings, m);
        return 0;
    }
    case 4: {
        pd_location loc;
        memset(&loc, 0, sizeof loc);
        PD_PUSH_OR_FAIL(pr->locations, pr->nlocations, loc);
        return is_message ? pd_decode_location(f->payload, &pr->locations[pr->nlocations - 1], unknown)
                          : -1;
    }
    case 5: {
        pd_function fn;
        if (!is_message || pd_decode_function(f->payload, &fn, unknown) != 0) return -1;
        PD_PUSH_OR_FAIL(pr->functions, pr->nfunctions, fn);
        return 0;
    }
    case 6: {
        if (!is_message) return -1;
        size_t len = (size_t)(f->payload.end - f->payload.p);
        char *s = malloc(len + 1);
        if (!s) return -1;
        memcpy(s, f->payload.p, len);
        s[len] = '\0';
        void *grown = realloc(pr->strings, (pr->nstrings + 1) * sizeof *pr->strings);
        if (!grown) {
            free(s);
            return -1;
        }
        pr->strings = grown;
        pr->strings[pr->nstrings++] = s;
        return 0;
    }
    case 9: PD_VARINT(f, pr->time_nanos); return 0;
    case 10: PD_VARINT(f, pr->duration_nanos); return 0;
    case 11:
        pr->has_period_type = 1;
        return is_message ? pd_decode_value_type(f->payload, &pr->period_type, unknown) : -1;
    case 12: PD_VARINT(f, pr->period); return 0;
    case 13: PD_APPEND_REPEATED_OR_FAIL(f, pr->comments, pr->ncomments, NULL); return 0;
    case 14: PD_VARINT(f, pr->default_sample_type); return 0;
    default: pr->unknown_fields++; return 0;
    }
}

/* Decodes a whole (uncompressed) Profile. 0, or -1 on malformed input (pr is freed). */
static inline int pd_decode_profile(const uint8_t *data, size_t len, pd_profile *pr) {
    memset(pr, 0, sizeof *pr);
    pd_reader r = {data, data + len};
    pd_field f;
    int rc;
    while ((rc = pd_next_field(&r, &f)) == 1) {
        if (pd_decode_profile_field(&f, pr) != 0) {
            rc = -1;
            break;
        }
    }
    if (rc != 0) pd_free_profile(pr);
    return rc;
}

/* string_table[index], or NULL when index is out of range. */
static inline const char *pd_string(const pd_profile *pr, int64_t index) {
    return index >= 0 && (uint64_t)index < pr->nstrings ? pr->strings[(size_t)index] : NULL;
}

#endif
