/* legacy_heap.c: Go's legacy text heap profile and its symbol table (see legacy_heap.h). */
#include "output/legacy_heap.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PC_BASE 0x100000ull
#define PC_STEP 16ull
#define PC_HASH_MASK 0xFFFFFFFFFFFull /* 44 bits: addresses below 2^48 */

/* --- addresses of frames --------------------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t hs_legacy_frame_pc(const char *name, const char *filename, int64_t line) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv1a(h, name ? name : "", strlen(name ? name : "") + 1);
    h = fnv1a(h, filename ? filename : "", strlen(filename ? filename : "") + 1);
    h = fnv1a(h, &line, sizeof line);
    return PC_BASE + (h & PC_HASH_MASK) * PC_STEP;
}

/* The PC of every location, unique within the profile. NULL on ENOMEM. */
static uint64_t *location_pcs(const hs_profile *p) {
    uint64_t *pcs = calloc(p->nlocations ? p->nlocations : 1, sizeof *pcs);
    size_t cap = 16;
    while (cap < (size_t)p->nlocations * 2) cap *= 2;
    uint64_t *taken = calloc(cap, sizeof *taken); /* open addressing; 0 = empty */
    if (!pcs || !taken) {
        free(pcs);
        free(taken);
        return NULL;
    }
    for (uint32_t i = 0; i < p->nlocations; i++) {
        const hs_location *loc = &p->locations[i];
        const hs_function *f = &p->functions[loc->function];
        uint64_t pc = hs_legacy_frame_pc(f->name, f->filename, loc->line);
        for (;;) {
            size_t slot = (size_t)(pc / PC_STEP) & (cap - 1);
            while (taken[slot] && taken[slot] != pc) slot = (slot + 1) & (cap - 1);
            if (!taken[slot]) {
                taken[slot] = pc;
                break;
            }
            pc += PC_STEP; /* another frame has it: the next one up */
        }
        pcs[i] = pc;
    }
    free(taken);
    return pcs;
}

/* --- records --------------------------------------------------------------------------------- */

/* One line of the text: a sample's four values (or the folded rest). */
typedef struct {
    int64_t inuse_objects, inuse_bytes, alloc_objects, alloc_bytes;
    const hs_sample *sample; /* NULL: the [other sites] line */
} record;

static int64_t value_of(const hs_profile *p, const hs_sample *s, const char *type) {
    uint32_t i = hs_profile_sample_type_index(p, type);
    return i < p->nsample_types && s->values[i] > 0 ? s->values[i] : 0;
}

static int by_size(const void *a, const void *b) {
    const record *x = a, *y = b;
    if (x->inuse_bytes != y->inuse_bytes) return x->inuse_bytes > y->inuse_bytes ? -1 : 1;
    if (x->alloc_bytes != y->alloc_bytes) return x->alloc_bytes > y->alloc_bytes ? -1 : 1;
    return 0;
}

/* The records in Go's order (largest in use first), the rest past the limit folded into
 * the last one. *n receives the count. NULL on ENOMEM. */
static record *records_of(const hs_profile *p, size_t *n) {
    record *r = calloc(p->nsamples ? p->nsamples : 1, sizeof *r);
    if (!r) return NULL;
    size_t used = 0;
    for (uint32_t i = 0; i < p->nsamples; i++) {
        const hs_sample *s = &p->samples[i];
        record x = {value_of(p, s, "inuse_objects"), value_of(p, s, "inuse_space"),
                    value_of(p, s, "alloc_objects"), value_of(p, s, "alloc_space"), s};
        if (x.inuse_objects || x.inuse_bytes || x.alloc_objects || x.alloc_bytes) r[used++] = x;
    }
    qsort(r, used, sizeof *r, by_size);
    if (used > HS_LEGACY_MAX_RECORDS) {
        record *rest = &r[HS_LEGACY_MAX_RECORDS - 1];
        for (size_t i = HS_LEGACY_MAX_RECORDS; i < used; i++) {
            rest->inuse_objects += r[i].inuse_objects;
            rest->inuse_bytes += r[i].inuse_bytes;
            rest->alloc_objects += r[i].alloc_objects;
            rest->alloc_bytes += r[i].alloc_bytes;
        }
        rest->sample = NULL;
        used = HS_LEGACY_MAX_RECORDS;
    }
    *n = used;
    return r;
}

/* pprof refuses "0: N" with N > 0 (objects 0, bytes not): such a pair gets one object. */
static bool fix_pair(int64_t *objects, int64_t bytes) {
    if (*objects > 0 || bytes <= 0) return false;
    *objects = 1;
    return true;
}

/* s (or `absent` when NULL or empty) kept on its line: control characters (a JVM name may
 * hold them) become spaces. */
static void put_clean(hs_text *t, const char *s, const char *absent) {
    if (!s || !*s) s = absent;
    for (; *s; s++) {
        char c = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
        hs_text_append(t, &c, 1);
    }
}

static void put_comment(hs_text *t, const char *s) {
    hs_text_puts(t, "# ");
    put_clean(t, s, "");
    hs_text_puts(t, "\n");
}

/* Go's frame lines: "#\tPC\tNAME+0x0\tFILE:LINE", leaf first. */
static void put_frames(hs_text *t, const hs_profile *p, const hs_sample *s, const uint64_t *pcs) {
    for (uint32_t d = 0; d < s->depth; d++) {
        const hs_location *loc = &p->locations[s->locations[d]];
        const hs_function *f = &p->functions[loc->function];
        hs_text_printf(t, "#\t%#llx\t", (unsigned long long)pcs[s->locations[d]]);
        put_clean(t, f->name, "?");
        hs_text_puts(t, "+0x0\t");
        put_clean(t, f->filename, "?");
        hs_text_printf(t, ":%lld\n", (long long)loc->line);
    }
}

static void put_record(hs_text *t, const hs_profile *p, const record *r, const uint64_t *pcs) {
    hs_text_printf(t, "%lld: %lld [%lld: %lld] @", (long long)r->inuse_objects,
                   (long long)r->inuse_bytes, (long long)r->alloc_objects,
                   (long long)r->alloc_bytes);
    if (!r->sample) { /* the folded rest: one frame of its own */
        uint64_t pc = hs_legacy_frame_pc(HS_LEGACY_OTHER_SITES, "", 0);
        hs_text_printf(t, " %#llx\n#\t%#llx\t%s+0x0\t?:0\n\n", (unsigned long long)pc + 1,
                       (unsigned long long)pc, HS_LEGACY_OTHER_SITES);
        return;
    }
    for (uint32_t d = 0; d < r->sample->depth; d++)
        hs_text_printf(t, " %#llx", (unsigned long long)pcs[r->sample->locations[d]] + 1);
    hs_text_puts(t, "\n");
    put_frames(t, p, r->sample, pcs);
    hs_text_puts(t, "\n");
}

int hs_legacy_heap_encode(const hs_profile *p, uint8_t **out, size_t *len) {
    size_t n = 0;
    uint64_t *pcs = location_pcs(p);
    record *r = pcs ? records_of(p, &n) : NULL;
    if (!r) {
        free(pcs);
        return -1;
    }
    record total = {0};
    unsigned fixed = 0;
    for (size_t i = 0; i < n; i++) {
        fixed += fix_pair(&r[i].inuse_objects, r[i].inuse_bytes);
        fixed += fix_pair(&r[i].alloc_objects, r[i].alloc_bytes);
        total.inuse_objects += r[i].inuse_objects;
        total.inuse_bytes += r[i].inuse_bytes;
        total.alloc_objects += r[i].alloc_objects;
        total.alloc_bytes += r[i].alloc_bytes;
    }
    hs_text t = {0};
    hs_text_printf(&t, "heap profile: %lld: %lld [%lld: %lld] @ heap/2\n",
                   (long long)total.inuse_objects, (long long)total.inuse_bytes,
                   (long long)total.alloc_objects, (long long)total.alloc_bytes);
    for (size_t i = 0; i < n; i++) put_record(&t, p, &r[i], pcs);
    hs_text_puts(&t, "\n# heapsampler\n");
    hs_text_printf(&t, "# values are unbiased estimates (sampling interval %lld bytes), already "
                   "scaled: \"heap/2\" (rate 1) tells pprof not to scale them again\n",
                   (long long)p->period);
    if (fixed)
        hs_text_printf(&t, "# %u values of 0 objects for a positive number of bytes are "
                       "written as 1 object (pprof refuses 0 objects with bytes)\n", fixed);
    for (uint32_t i = 0; i < p->ncomments; i++) put_comment(&t, p->comments[i]);
    free(r);
    free(pcs);
    if (t.failed) {
        hs_text_free(&t);
        return -1;
    }
    *out = (uint8_t *)t.data;
    *len = t.len;
    return 0;
}

/* --- symbols --------------------------------------------------------------------------------- */

typedef struct {
    uint64_t pc;
    const char *name; /* into names, not NUL-terminated */
    size_t len;
} symbol;

struct hs_legacy_symbols {
    symbol *table; /* sorted by pc, unique */
    size_t n;
    char *names;   /* a copy of the text the names point into */
};

static int by_pc(const void *a, const void *b) {
    const symbol *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* A '#' frame line "#\t0xPC\tNAME+0x0\t..." at line (len bytes): its symbol, or false. */
static bool frame_line(const char *line, size_t len, symbol *out) {
    if (len < 5 || memcmp(line, "#\t0x", 4) != 0) return false;
    char *end = NULL;
    out->pc = strtoull(line + 2, &end, 16);
    if (end == line + 2 || (size_t)(end - line) >= len || *end != '\t') return false;
    const char *name = end + 1;
    const char *stop = memchr(name, '\t', len - (size_t)(name - line));
    if (!stop) stop = line + len;
    for (const char *plus = stop; plus > name; plus--) /* the name ends at its last "+0x" */
        if (plus + 3 <= stop && memcmp(plus, "+0x", 3) == 0) {
            stop = plus;
            break;
        }
    out->name = name;
    out->len = (size_t)(stop - name);
    return out->len > 0;
}

hs_legacy_symbols *hs_legacy_symbols_of(const char *text, size_t len) {
    hs_legacy_symbols *s = calloc(1, sizeof *s);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    if (s) s->names = malloc(len ? len : 1);
    if (s && s->names) s->table = malloc(lines * sizeof *s->table);
    if (!s || !s->names || !s->table) {
        hs_legacy_symbols_free(s);
        return NULL;
    }
    memcpy(s->names, text, len);
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(s->names + at, '\n', len - at);
        size_t line_len = nl ? (size_t)(nl - (s->names + at)) : len - at;
        if (frame_line(s->names + at, line_len, &s->table[s->n])) s->n++;
        at += line_len + 1;
    }
    qsort(s->table, s->n, sizeof *s->table, by_pc);
    size_t unique = 0;
    for (size_t i = 0; i < s->n; i++)
        if (unique == 0 || s->table[unique - 1].pc != s->table[i].pc) s->table[unique++] = s->table[i];
    s->n = unique;
    return s;
}

void hs_legacy_symbols_free(hs_legacy_symbols *s) {
    if (!s) return;
    free(s->table);
    free(s->names);
    free(s);
}

size_t hs_legacy_symbols_count(const hs_legacy_symbols *s) { return s ? s->n : 0; }

static const symbol *lookup(const hs_legacy_symbols *s, uint64_t pc) {
    symbol key = {.pc = pc};
    return bsearch(&key, s->table, s->n, sizeof *s->table, by_pc);
}

/* One word of the query: a number as Go's strconv.ParseUint(word, 0, 64) reads it
 * ("0x" hex, "0" octal, else decimal); 0 when it is not one. */
static uint64_t parse_word(const char *word, size_t len) {
    char buf[32];
    if (len == 0 || len >= sizeof buf) return 0;
    memcpy(buf, word, len);
    buf[len] = '\0';
    if (buf[0] < '0' || buf[0] > '9') return 0; /* no sign, no space */
    char *end = NULL;
    unsigned long long v = strtoull(buf, &end, 0);
    return *end == '\0' ? (uint64_t)v : 0;
}

void hs_legacy_symbols_answer(const hs_legacy_symbols *s, const char *query, size_t len,
                              hs_text *out) {
    hs_text_puts(out, "num_symbols: 1\n");
    if (!s || s->n == 0) return;
    unsigned char *answered = calloc((s->n + 7) / 8, 1);
    if (!answered) {
        out->failed = 1;
        return;
    }
    for (size_t at = 0; at <= len;) {
        const char *plus = memchr(query + at, '+', len - at);
        size_t word_len = plus ? (size_t)(plus - (query + at)) : len - at;
        uint64_t pc = parse_word(query + at, word_len);
        const symbol *sym = pc ? lookup(s, pc) : NULL;
        size_t i = sym ? (size_t)(sym - s->table) : 0;
        if (sym && !(answered[i / 8] & (1u << (i % 8)))) {
            answered[i / 8] |= (unsigned char)(1u << (i % 8));
            hs_text_printf(out, "%#llx %.*s\n", (unsigned long long)pc, (int)sym->len, sym->name);
        }
        at += word_len + 1;
    }
    free(answered);
}
