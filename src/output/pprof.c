/* pprof.c: encodes an hs_profile as a profile.proto message, and gzips it (see pprof.h).
 *
 * A minimal protobuf writer: pprof only needs varints (wire type 0) and length-delimited
 * fields (wire type 2). A nested message is written in place right after its tag; when
 * it ends, its length varint is inserted in front of the body (a memmove of the body,
 * which is small: one Sample, Location, Function...). Repeated scalars (location_id,
 * value, comment) use packed encoding like Go's writer. Scalars equal to zero are left
 * out: proto3 decodes an absent scalar as zero.
 *
 * Strings are interned first into a table (index 0 is ""), so that every message can
 * refer to its strings by index while fields are written in field-number order. */
#include "output/pprof.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* profile.proto field numbers (github.com/google/pprof/proto/profile.proto) */
enum {
    PROFILE_SAMPLE_TYPE = 1,
    PROFILE_SAMPLE = 2,
    PROFILE_MAPPING = 3,
    PROFILE_LOCATION = 4,
    PROFILE_FUNCTION = 5,
    PROFILE_STRING_TABLE = 6,
    PROFILE_TIME_NANOS = 9,
    PROFILE_DURATION_NANOS = 10,
    PROFILE_PERIOD_TYPE = 11,
    PROFILE_PERIOD = 12,
    PROFILE_COMMENT = 13,
    PROFILE_DEFAULT_SAMPLE_TYPE = 14,

    VALUE_TYPE_TYPE = 1,
    VALUE_TYPE_UNIT = 2,

    SAMPLE_LOCATION_ID = 1,
    SAMPLE_VALUE = 2,
    SAMPLE_LABEL = 3,

    LABEL_KEY = 1,
    LABEL_STR = 2,
    LABEL_NUM = 3,
    LABEL_NUM_UNIT = 4,

    MAPPING_ID = 1,
    MAPPING_FILENAME = 5,
    MAPPING_HAS_FUNCTIONS = 7,
    MAPPING_HAS_FILENAMES = 8,
    MAPPING_HAS_LINE_NUMBERS = 9,

    LOCATION_ID = 1,
    LOCATION_MAPPING_ID = 2,
    LOCATION_LINE = 4,

    LINE_FUNCTION_ID = 1,
    LINE_LINE = 2,

    FUNCTION_ID = 1,
    FUNCTION_NAME = 2,
    FUNCTION_SYSTEM_NAME = 3,
    FUNCTION_FILENAME = 4,
    FUNCTION_START_LINE = 5,
};

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

#define JVM_MAPPING_ID 1
#define JVM_MAPPING_NAME "[jvm]"
#define OBJECT_SIZE_LABEL "bytes" /* Go's heap profiles use this key, in bytes */
#define GC_AGE_LABEL "gc_age"      /* GCs survived (live_age.h); no unit */
#define LIVENESS_LABEL "liveness" /* confirmed|unjudged (liveness.h) */
#define AGE_SECONDS_LABEL "age_seconds" /* mean age in seconds (live_age.h) */
#define SECONDS_UNIT "seconds"

/* ---- output buffer ------------------------------------------------------------------ */

/* A growable byte buffer. The first failed allocation sets `failed`; every later write
 * is then a no-op, so callers check once at the end. */
typedef struct {
    uint8_t *data;
    size_t len, cap;
    int failed;
} buffer;

static int buf_reserve(buffer *b, size_t extra) {
    if (b->failed) return -1;
    if (extra <= b->cap - b->len) return 0;
    size_t need = b->len + extra;
    if (need < b->len) goto fail; /* overflow */
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) goto fail;
        cap *= 2;
    }
    uint8_t *grown = realloc(b->data, cap);
    if (!grown) goto fail;
    b->data = grown;
    b->cap = cap;
    return 0;
fail:
    b->failed = 1;
    return -1;
}

static void buf_append(buffer *b, const void *bytes, size_t n) {
    if (n == 0 || buf_reserve(b, n) != 0) return;
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

/* Writes v as a base-128 varint into out (at least 10 bytes); returns its length. */
static size_t varint_encode(uint8_t *out, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static void put_varint(buffer *b, uint64_t v) {
    uint8_t tmp[10];
    buf_append(b, tmp, varint_encode(tmp, v));
}

static void put_tag(buffer *b, int field, int wire_type) {
    put_varint(b, ((uint64_t)field << 3) | (uint64_t)wire_type);
}

/* A uint64 or int64 scalar field; int64 is the two's complement as a varint, so a
 * negative value takes 10 bytes (protobuf's int64, not sint64). Zero is left out. */
static void put_uint_field(buffer *b, int field, uint64_t v) {
    if (v == 0) return;
    put_tag(b, field, WIRE_VARINT);
    put_varint(b, v);
}

static void put_int_field(buffer *b, int field, int64_t v) { put_uint_field(b, field, (uint64_t)v); }

static void put_bool_field(buffer *b, int field, int v) { put_uint_field(b, field, v ? 1 : 0); }

static void put_bytes_field(buffer *b, int field, const void *bytes, size_t n) {
    put_tag(b, field, WIRE_LEN);
    put_varint(b, n);
    buf_append(b, bytes, n);
}

/* Starts a length-delimited field (a nested message or a packed array). Returns the
 * offset where its body starts, to be handed to end_len_field. */
static size_t begin_len_field(buffer *b, int field) {
    put_tag(b, field, WIRE_LEN);
    return b->len;
}

/* Inserts the body's length in front of the body that starts at start. */
static void end_len_field(buffer *b, size_t start) {
    if (b->failed) return;
    size_t body = b->len - start;
    uint8_t len_bytes[10];
    size_t n = varint_encode(len_bytes, body);
    if (buf_reserve(b, n) != 0) return;
    memmove(b->data + start + n, b->data + start, body);
    memcpy(b->data + start, len_bytes, n);
    b->len += n;
}

/* ---- string table ----------------------------------------------------------------- */

/* Interned strings, by pointer into the profile (no copies): strs[i] is string_table[i].
 * slots is an open-addressing hash table of index + 1 (0 = empty). */
typedef struct {
    const char **strs;
    uint32_t n, cap;
    uint32_t *slots;
    uint32_t nslots; /* a power of two */
} string_table;

static uint32_t hash_string(const char *s) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static uint32_t *strtab_slot(const string_table *t, const char *s) {
    uint32_t mask = t->nslots - 1;
    for (uint32_t i = hash_string(s) & mask;; i = (i + 1) & mask) {
        uint32_t *slot = &t->slots[i];
        if (*slot == 0 || strcmp(t->strs[*slot - 1], s) == 0) return slot;
    }
}

static int strtab_grow_slots(string_table *t) {
    uint32_t nslots = t->nslots ? t->nslots * 2 : 256;
    if (nslots < t->nslots) return -1;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots) return -1;
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    for (uint32_t i = 0; i < t->n; i++) *strtab_slot(t, t->strs[i]) = i + 1;
    return 0;
}

/* Returns the index of s (NULL counts as ""), adding it on first use; -1 on ENOMEM. */
static int64_t strtab_intern(string_table *t, const char *s) {
    if (!s) s = "";
    if (t->nslots == 0 && strtab_grow_slots(t) != 0) return -1;
    uint32_t *slot = strtab_slot(t, s);
    if (*slot) return *slot - 1;

    if ((uint64_t)(t->n + 1) * 4 > (uint64_t)t->nslots * 3) { /* load factor < 3/4 */
        if (strtab_grow_slots(t) != 0) return -1;
        slot = strtab_slot(t, s);
    }
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 256;
        if (cap < t->cap) return -1;
        const char **strs = realloc(t->strs, (size_t)cap * sizeof *strs);
        if (!strs) return -1;
        t->strs = strs;
        t->cap = cap;
    }
    t->strs[t->n] = s;
    *slot = t->n + 1;
    return t->n++;
}

static void strtab_free(string_table *t) {
    free(t->strs);
    free(t->slots);
}

/* ---- encoder ----------------------------------------------------------------------- */

typedef struct {
    const hs_profile *p;
    string_table strings;
    buffer out;
    int failed; /* a string could not be interned */
} encoder;

/* The string's index. Every string has been interned by intern_all_strings, so the
 * lookup never allocates here; a failure still propagates rather than writing index 0. */
static uint64_t str_index(encoder *e, const char *s) {
    int64_t i = strtab_intern(&e->strings, s);
    if (i < 0) {
        e->failed = 1;
        return 0;
    }
    return (uint64_t)i;
}

/* Interns every string the profile refers to, "" first, so that the string table can
 * be written (field 6) before the fields after it that refer to it. 0 or -1. */
static int intern_all_strings(encoder *e) {
    const hs_profile *p = e->p;
    str_index(e, "");
    for (uint32_t i = 0; i < p->nsample_types; i++) {
        str_index(e, p->sample_types[i].type);
        str_index(e, p->sample_types[i].unit);
    }
    for (uint32_t i = 0; i < p->nsamples; i++) {
        if (p->samples[i].object_size > 0) str_index(e, OBJECT_SIZE_LABEL);
        if (p->samples[i].label_key) {
            str_index(e, p->samples[i].label_key);
            str_index(e, p->samples[i].label_value);
        }
        if (p->samples[i].liveness) {
            str_index(e, LIVENESS_LABEL);
            str_index(e, p->samples[i].liveness);
        }
    }
    for (uint32_t i = 0; i < p->nsamples; i++) {
        if (p->samples[i].ages.gc_age > 0) str_index(e, GC_AGE_LABEL);
        if (p->samples[i].ages.age_seconds >= 0) {
            str_index(e, AGE_SECONDS_LABEL);
            str_index(e, SECONDS_UNIT);
        }
    }
    str_index(e, JVM_MAPPING_NAME);
    for (uint32_t i = 0; i < p->nfunctions; i++) {
        str_index(e, p->functions[i].name);
        str_index(e, p->functions[i].system_name);
        str_index(e, p->functions[i].filename);
    }
    if (p->period_type.type || p->period_type.unit) {
        str_index(e, p->period_type.type);
        str_index(e, p->period_type.unit);
    }
    for (uint32_t i = 0; i < p->ncomments; i++) str_index(e, p->comments[i]);
    if (p->default_sample_type) str_index(e, p->default_sample_type);
    return e->failed ? -1 : 0;
}

static void write_value_type(encoder *e, int field, const hs_value_type *vt) {
    size_t start = begin_len_field(&e->out, field);
    put_uint_field(&e->out, VALUE_TYPE_TYPE, str_index(e, vt->type));
    put_uint_field(&e->out, VALUE_TYPE_UNIT, str_index(e, vt->unit));
    end_len_field(&e->out, start);
}

/* A numeric label key=num, with its unit when unit is not NULL. */
static void write_num_label(encoder *e, const char *key, int64_t num, const char *unit) {
    size_t label = begin_len_field(&e->out, SAMPLE_LABEL);
    put_uint_field(&e->out, LABEL_KEY, str_index(e, key));
    put_int_field(&e->out, LABEL_NUM, num);
    if (unit) put_uint_field(&e->out, LABEL_NUM_UNIT, str_index(e, unit));
    end_len_field(&e->out, label);
}

/* A string label key=value. */
static void write_str_label(encoder *e, const char *key, const char *value) {
    size_t label = begin_len_field(&e->out, SAMPLE_LABEL);
    put_uint_field(&e->out, LABEL_KEY, str_index(e, key));
    put_uint_field(&e->out, LABEL_STR, str_index(e, value));
    end_len_field(&e->out, label);
}

static void write_sample(encoder *e, const hs_sample *s) {
    buffer *b = &e->out;
    size_t start = begin_len_field(b, PROFILE_SAMPLE);
    if (s->depth > 0) {
        size_t ids = begin_len_field(b, SAMPLE_LOCATION_ID);
        for (uint32_t i = 0; i < s->depth; i++) put_varint(b, (uint64_t)s->locations[i] + 1);
        end_len_field(b, ids);
    }
    if (e->p->nsample_types > 0) {
        size_t values = begin_len_field(b, SAMPLE_VALUE);
        for (uint32_t i = 0; i < e->p->nsample_types; i++) put_varint(b, (uint64_t)s->values[i]);
        end_len_field(b, values);
    }
    if (s->object_size > 0) write_num_label(e, OBJECT_SIZE_LABEL, s->object_size, OBJECT_SIZE_LABEL);
    if (s->ages.gc_age > 0) write_num_label(e, GC_AGE_LABEL, s->ages.gc_age, NULL);
    if (s->ages.age_seconds >= 0)
        write_num_label(e, AGE_SECONDS_LABEL, s->ages.age_seconds, SECONDS_UNIT);
    if (s->label_key) write_str_label(e, s->label_key, s->label_value);
    if (s->liveness) write_str_label(e, LIVENESS_LABEL, s->liveness);
    end_len_field(b, start);
}

/* The single mapping every location belongs to: the JVM, with symbolized frames. */
static void write_mapping(encoder *e) {
    buffer *b = &e->out;
    size_t start = begin_len_field(b, PROFILE_MAPPING);
    put_uint_field(b, MAPPING_ID, JVM_MAPPING_ID);
    put_uint_field(b, MAPPING_FILENAME, str_index(e, JVM_MAPPING_NAME));
    put_bool_field(b, MAPPING_HAS_FUNCTIONS, 1);
    put_bool_field(b, MAPPING_HAS_FILENAMES, 1);
    put_bool_field(b, MAPPING_HAS_LINE_NUMBERS, 1);
    end_len_field(b, start);
}

static void write_location(encoder *e, uint32_t index) {
    const hs_location *loc = &e->p->locations[index];
    buffer *b = &e->out;
    size_t start = begin_len_field(b, PROFILE_LOCATION);
    put_uint_field(b, LOCATION_ID, (uint64_t)index + 1);
    put_uint_field(b, LOCATION_MAPPING_ID, JVM_MAPPING_ID);
    size_t line = begin_len_field(b, LOCATION_LINE);
    put_uint_field(b, LINE_FUNCTION_ID, (uint64_t)loc->function + 1);
    put_int_field(b, LINE_LINE, loc->line);
    end_len_field(b, line);
    end_len_field(b, start);
}

static void write_function(encoder *e, uint32_t index) {
    const hs_function *f = &e->p->functions[index];
    buffer *b = &e->out;
    size_t start = begin_len_field(b, PROFILE_FUNCTION);
    put_uint_field(b, FUNCTION_ID, (uint64_t)index + 1);
    put_uint_field(b, FUNCTION_NAME, str_index(e, f->name));
    put_uint_field(b, FUNCTION_SYSTEM_NAME, str_index(e, f->system_name));
    put_uint_field(b, FUNCTION_FILENAME, str_index(e, f->filename));
    put_int_field(b, FUNCTION_START_LINE, f->start_line);
    end_len_field(b, start);
}

static void write_string_table(encoder *e) {
    for (uint32_t i = 0; i < e->strings.n; i++) {
        const char *s = e->strings.strs[i];
        put_bytes_field(&e->out, PROFILE_STRING_TABLE, s, strlen(s));
    }
}

static void write_comments(encoder *e) {
    if (e->p->ncomments == 0) return;
    size_t start = begin_len_field(&e->out, PROFILE_COMMENT);
    for (uint32_t i = 0; i < e->p->ncomments; i++) put_varint(&e->out, str_index(e, e->p->comments[i]));
    end_len_field(&e->out, start);
}

/* Every id the encoder writes must refer to something that exists (pprof rejects the
 * whole file otherwise). The builder guarantees it; a hand-made profile may not. */
static int references_are_valid(const hs_profile *p) {
    if (p->nsample_types > HS_PROFILE_MAX_VALUES) return 0;
    for (uint32_t i = 0; i < p->nlocations; i++)
        if (p->locations[i].function >= p->nfunctions) return 0;
    for (uint32_t i = 0; i < p->nsamples; i++)
        for (uint32_t j = 0; j < p->samples[i].depth; j++)
            if (p->samples[i].locations[j] >= p->nlocations) return 0;
    return 1;
}

static void write_profile(encoder *e) {
    const hs_profile *p = e->p;
    for (uint32_t i = 0; i < p->nsample_types; i++)
        write_value_type(e, PROFILE_SAMPLE_TYPE, &p->sample_types[i]);
    for (uint32_t i = 0; i < p->nsamples; i++) write_sample(e, &p->samples[i]);
    write_mapping(e);
    for (uint32_t i = 0; i < p->nlocations; i++) write_location(e, i);
    for (uint32_t i = 0; i < p->nfunctions; i++) write_function(e, i);
    write_string_table(e);
    put_int_field(&e->out, PROFILE_TIME_NANOS, p->time_nanos);
    put_int_field(&e->out, PROFILE_DURATION_NANOS, p->duration_nanos);
    if (p->period_type.type || p->period_type.unit)
        write_value_type(e, PROFILE_PERIOD_TYPE, &p->period_type);
    put_int_field(&e->out, PROFILE_PERIOD, p->period);
    write_comments(e);
    if (p->default_sample_type)
        put_uint_field(&e->out, PROFILE_DEFAULT_SAMPLE_TYPE, str_index(e, p->default_sample_type));
}

int hs_pprof_encode(const hs_profile *p, uint8_t **out, size_t *outlen) {
    *out = NULL;
    *outlen = 0;
    if (p->failed) { /* an allocation failed while building: the profile is incomplete */
        errno = ENOMEM;
        return -1;
    }
    if (!references_are_valid(p)) {
        errno = EINVAL;
        return -1;
    }
    encoder e = {.p = p};
    if (intern_all_strings(&e) == 0) write_profile(&e);
    strtab_free(&e.strings);
    if (e.failed || e.out.failed) {
        free(e.out.data);
        errno = ENOMEM;
        return -1;
    }
    *out = e.out.data;
    *outlen = e.out.len;
    return 0;
}

/* ---- gzip ----------------------------------------------------------------------------- */

#define GZIP_WINDOW_BITS (15 + 16) /* 32 KiB window, gzip header and trailer */
#define GZIP_LEVEL 6
#define ZLIB_CHUNK_MAX ((size_t)UINT_MAX) /* avail_in / avail_out are 32-bit uInt */

int hs_gzip(const uint8_t *in, size_t inlen, uint8_t **out, size_t *outlen) {
    *out = NULL;
    *outlen = 0;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW_BITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        errno = ENOMEM;
        return -1;
    }
    /* deflateBound is enough for one pass; the loop still grows the buffer should
     * zlib ever need more, rather than trusting the bound. */
    size_t cap = deflateBound(&zs, inlen > ULONG_MAX ? ULONG_MAX : (uLong)inlen);
    uint8_t *buf = malloc(cap);
    size_t produced = 0, consumed = 0;
    int rc = buf ? Z_OK : Z_MEM_ERROR;
    while (rc == Z_OK || rc == Z_BUF_ERROR) {
        if (produced == cap) {
            size_t new_cap = cap * 2;
            uint8_t *grown = new_cap > cap ? realloc(buf, new_cap) : NULL;
            if (!grown) {
                rc = Z_MEM_ERROR;
                break;
            }
            buf = grown;
            cap = new_cap;
        }
        size_t in_chunk = inlen - consumed < ZLIB_CHUNK_MAX ? inlen - consumed : ZLIB_CHUNK_MAX;
        size_t out_chunk = cap - produced < ZLIB_CHUNK_MAX ? cap - produced : ZLIB_CHUNK_MAX;
        /* zlib does not write through next_in; in may be NULL when inlen is 0 */
        zs.next_in = in ? (Bytef *)(uintptr_t)(in + consumed) : Z_NULL;
        zs.avail_in = (uInt)in_chunk;
        zs.next_out = buf + produced;
        zs.avail_out = (uInt)out_chunk;
        int flush = consumed + in_chunk == inlen ? Z_FINISH : Z_NO_FLUSH;
        rc = deflate(&zs, flush);
        consumed += in_chunk - zs.avail_in;
        produced += out_chunk - zs.avail_out;
        if (rc == Z_BUF_ERROR && zs.avail_out != 0) break; /* no progress possible: a bug */
    }
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(buf);
        errno = ENOMEM;
        return -1;
    }
    *out = buf;
    *outlen = produced;
    return 0;
}
