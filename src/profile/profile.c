/* profile.c: the in-memory heap profile model and its builder (see profile.h).
 *
 * Growable arrays that own copies of every string. add_location deduplicates
 * (function, line) pairs through a small open-addressing hash table kept behind
 * hs_profile.location_index. The first failed allocation sets `failed`: from then on
 * every builder call is a no-op that reports an error, and the encoders refuse the
 * profile instead of writing an incomplete one. Runs off the hot path (agent thread or
 * exit), so plain malloc is fine. */
#include "profile/profile.h"

#include "base/hash.h"
#include "base/utf8.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (function, line) -> location index. Slots hold index + 1; 0 marks an empty slot.
 * Keys are not stored: a slot's key is read back from p->locations. */
typedef struct {
    uint32_t *slots;
    uint32_t cap; /* a power of two */
    uint32_t used;
} location_index;

#define LOCATION_INDEX_MIN_CAP 64u

/* Marks the profile incomplete; every later builder call fails fast. */
static void set_failed(hs_profile *p) {
    p->failed = 1;
    errno = ENOMEM;
}

/* A copy in standard UTF-8 (the JVM's names are modified UTF-8, see utf8.h), NULL taken
 * as "": the encoders can rely on every string being set and valid. */
static char *copy_string(const char *s) { return hs_utf8_dup(s); }

/* Copies type and unit into *out. 0, or -1 with the profile marked failed (and *out
 * untouched) when either copy cannot be made. */
static int copy_value_type(hs_profile *p, const char *type, const char *unit, hs_value_type *out) {
    char *type_copy = copy_string(type), *unit_copy = copy_string(unit);
    if (!type_copy || !unit_copy) {
        free(type_copy);
        free(unit_copy);
        set_failed(p);
        return -1;
    }
    *out = (hs_value_type){.type = type_copy, .unit = unit_copy};
    return 0;
}

/* Grows *array (elements of elem_size) so that it holds at least need elements.
 * Doubling keeps appends amortised O(1). Returns 0, or -1 on ENOMEM / overflow. */
static int ensure_capacity(void **array, uint32_t *cap, uint32_t need, size_t elem_size) {
    if (need <= *cap) return 0;
    uint64_t new_cap = *cap ? (uint64_t)*cap * 2 : 16;
    while (new_cap < need) new_cap *= 2;
    if (new_cap > UINT32_MAX - 1) new_cap = UINT32_MAX - 1; /* UINT32_MAX is the error value */
    if (new_cap < need || new_cap > SIZE_MAX / elem_size) return -1;
    void *grown = realloc(*array, (size_t)new_cap * elem_size);
    if (!grown) return -1;
    *array = grown;
    *cap = (uint32_t)new_cap;
    return 0;
}

static uint32_t hash_location(uint32_t function, int64_t line) {
    return (uint32_t)hs_mix64(((uint64_t)function << 32) ^ (uint64_t)line);
}

/* The slot holding (function, line), or the empty slot where it belongs. */
static uint32_t *index_find_slot(const hs_profile *p, const location_index *ix, uint32_t function,
                                 int64_t line) {
    uint32_t mask = ix->cap - 1;
    for (uint32_t i = hash_location(function, line) & mask;; i = (i + 1) & mask) {
        uint32_t *slot = &ix->slots[i];
        if (*slot == 0) return slot;
        const hs_location *loc = &p->locations[*slot - 1];
        if (loc->function == function && loc->line == line) return slot;
    }
}

/* Rehashes every location into a table twice as large. 0 or -1 (ENOMEM). */
static int index_grow(hs_profile *p, location_index *ix) {
    uint32_t new_cap = ix->cap ? ix->cap * 2 : LOCATION_INDEX_MIN_CAP;
    if (new_cap < ix->cap) return -1;
    uint32_t *slots = calloc(new_cap, sizeof *slots);
    if (!slots) return -1;
    free(ix->slots);
    ix->slots = slots;
    ix->cap = new_cap;
    for (uint32_t i = 0; i < p->nlocations; i++) {
        uint32_t *slot = index_find_slot(p, ix, p->locations[i].function, p->locations[i].line);
        *slot = i + 1;
    }
    return 0;
}

hs_profile *hs_profile_new(void) {
    hs_profile *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    location_index *ix = calloc(1, sizeof *ix);
    if (!ix || index_grow(p, ix) != 0) {
        free(ix);
        free(p);
        return NULL;
    }
    p->location_index = ix;
    return p;
}

void hs_profile_free(hs_profile *p) {
    if (!p) return;
    for (uint32_t i = 0; i < p->nsample_types; i++) {
        free(p->sample_types[i].type);
        free(p->sample_types[i].unit);
    }
    free(p->default_sample_type);
    free(p->period_type.type);
    free(p->period_type.unit);
    for (uint32_t i = 0; i < p->nfunctions; i++) {
        free(p->functions[i].name);
        free(p->functions[i].system_name);
        free(p->functions[i].filename);
    }
    free(p->functions);
    free(p->locations);
    for (uint32_t i = 0; i < p->nsamples; i++) {
        free(p->samples[i].locations);
        free(p->samples[i].label_key);
        free(p->samples[i].label_value);
    }
    free(p->samples);
    for (uint32_t i = 0; i < p->ncomments; i++) free(p->comments[i]);
    free(p->comments);
    location_index *ix = p->location_index;
    if (ix) free(ix->slots);
    free(ix);
    free(p);
}

int hs_profile_add_sample_type(hs_profile *p, const char *type, const char *unit) {
    if (p->failed) return -1;
    if (p->nsample_types >= HS_PROFILE_MAX_VALUES) {
        errno = EINVAL; /* a programming error, not a shortage: the profile stays usable */
        return -1;
    }
    if (copy_value_type(p, type, unit, &p->sample_types[p->nsample_types]) != 0) return -1;
    return (int)p->nsample_types++;
}

int hs_profile_set_default_sample_type(hs_profile *p, const char *type) {
    if (p->failed) return -1;
    char *copy = copy_string(type);
    if (!copy) {
        set_failed(p);
        return -1;
    }
    free(p->default_sample_type);
    p->default_sample_type = copy;
    return 0;
}

uint32_t hs_profile_sample_type_index(const hs_profile *p, const char *type) {
    uint32_t v = 0;
    while (v < p->nsample_types && strcmp(p->sample_types[v].type, type) != 0) v++;
    return v;
}

int hs_profile_set_period(hs_profile *p, const char *type, const char *unit, int64_t period) {
    if (p->failed) return -1;
    hs_value_type copy;
    if (copy_value_type(p, type, unit, &copy) != 0) return -1;
    free(p->period_type.type);
    free(p->period_type.unit);
    p->period_type = copy;
    p->period = period;
    return 0;
}

uint32_t hs_profile_add_function(hs_profile *p, const char *name, const char *system_name,
                                 const char *filename, int64_t start_line) {
    if (p->failed) return UINT32_MAX;
    if (ensure_capacity((void **)&p->functions, &p->functions_cap, p->nfunctions + 1,
                        sizeof *p->functions) != 0) {
        set_failed(p);
        return UINT32_MAX;
    }
    hs_function f = {copy_string(name), copy_string(system_name), copy_string(filename),
                     start_line};
    if (!f.name || !f.system_name || !f.filename) {
        free(f.name);
        free(f.system_name);
        free(f.filename);
        set_failed(p);
        return UINT32_MAX;
    }
    p->functions[p->nfunctions] = f;
    return p->nfunctions++;
}

uint32_t hs_profile_add_location(hs_profile *p, uint32_t function, int64_t line) {
    if (p->failed) return UINT32_MAX;
    if (function >= p->nfunctions) {
        errno = EINVAL; /* would reference a Function that does not exist */
        return UINT32_MAX;
    }
    location_index *ix = p->location_index;
    uint32_t *slot = index_find_slot(p, ix, function, line);
    if (*slot != 0) return *slot - 1;

    /* Keep the load factor under 3/4 so probe sequences stay short. */
    if ((uint64_t)(ix->used + 1) * 4 > (uint64_t)ix->cap * 3) {
        if (index_grow(p, ix) != 0) {
            set_failed(p);
            return UINT32_MAX;
        }
        slot = index_find_slot(p, ix, function, line);
    }
    if (ensure_capacity((void **)&p->locations, &p->locations_cap, p->nlocations + 1,
                        sizeof *p->locations) != 0) {
        set_failed(p);
        return UINT32_MAX;
    }
    p->locations[p->nlocations] = (hs_location){function, line};
    *slot = p->nlocations + 1;
    ix->used++;
    return p->nlocations++;
}

int hs_profile_add_sample(hs_profile *p, const uint32_t *locations, uint32_t depth,
                          const int64_t *values, int64_t object_size) {
    return hs_profile_add_aged_sample(p, locations, depth, values, object_size, NULL);
}

int hs_profile_add_aged_sample(hs_profile *p, const uint32_t *locations, uint32_t depth,
                               const int64_t *values, int64_t object_size,
                               const hs_sample_ages *ages) {
    if (p->failed) return -1;
    for (uint32_t i = 0; i < depth; i++) {
        if (locations[i] >= p->nlocations) {
            errno = EINVAL; /* would reference a Location that does not exist */
            return -1;
        }
    }
    if (ensure_capacity((void **)&p->samples, &p->samples_cap, p->nsamples + 1,
                        sizeof *p->samples) != 0) {
        set_failed(p);
        return -1;
    }
    hs_sample s = {.locations = NULL, .depth = depth, .object_size = object_size,
                   .ages = ages ? *ages : (hs_sample_ages){.gc_age = 0, .age_seconds = -1}};
    if (depth > 0) {
        s.locations = malloc((size_t)depth * sizeof *s.locations);
        if (!s.locations) {
            set_failed(p);
            return -1;
        }
        memcpy(s.locations, locations, (size_t)depth * sizeof *s.locations);
    }
    for (uint32_t i = 0; i < p->nsample_types; i++) s.values[i] = values[i];
    p->samples[p->nsamples++] = s;
    return 0;
}

int hs_profile_add_comment(hs_profile *p, const char *fmt, ...) {
    if (p->failed) return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return -1; /* an encoding error in the format, not a shortage */

    char *text = malloc((size_t)n + 1);
    if (!text || ensure_capacity((void **)&p->comments, &p->comments_cap, p->ncomments + 1,
                                 sizeof *p->comments) != 0) {
        free(text);
        set_failed(p);
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    char *utf8 = copy_string(text); /* options and JVM names may carry any bytes */
    free(text);
    if (!utf8) {
        set_failed(p);
        return -1;
    }
    p->comments[p->ncomments++] = utf8;
    return 0;
}

/* Gives sample s the label key=value (copies), replacing an earlier one. 0 or -1. */
static int label_sample(hs_profile *p, hs_sample *s, const char *key, const char *value) {
    char *key_copy = copy_string(key), *value_copy = copy_string(value);
    if (!key_copy || !value_copy) {
        free(key_copy);
        free(value_copy);
        set_failed(p);
        return -1;
    }
    free(s->label_key);
    free(s->label_value);
    s->label_key = key_copy;
    s->label_value = value_copy;
    return 0;
}

int hs_profile_label_samples(hs_profile *p, uint32_t first, const char *key, const char *value) {
    if (p->failed || first >= p->nsamples) return -1;
    for (uint32_t i = first; i < p->nsamples; i++)
        if (label_sample(p, &p->samples[i], key, value) != 0) return -1;
    return 0;
}
