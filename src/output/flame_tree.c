/* flame_tree.c: samples merged into a call tree (see flame_tree.h).
 *
 * Children are found through one open-addressing hash table keyed by (parent, function),
 * rather than child lists per node: a sample of depth d costs d lookups whatever the
 * fan-out, which matters for profiles with hundreds of thousands of stacks. Totals are
 * summed at the end in one backward pass, which works because a parent's index is below
 * its children's. The mean ages are summed the same way: age_seconds holds the sum of
 * bytes x seconds until the pass divides it by aged_bytes. */
#include "output/flame_tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

struct hs_flame_tree {
    hs_flame_node *nodes;
    uint32_t nnodes, cap;
    uint32_t *slots; /* node index + 1, 0 = empty; nslots is a power of two */
    uint32_t nslots;
    uint32_t nvalues;
    uint32_t inuse_space; /* index of the inuse_space value; nvalues when there is none */
};

static uint32_t slot_of(const hs_flame_tree *t, uint32_t parent, uint32_t function) {
    uint64_t key = ((uint64_t)parent << 32) | function;
    return (uint32_t)hs_mix64(key) & (t->nslots - 1);
}

/* Index of the slot that holds (parent, function), or of the empty slot where it goes. */
static uint32_t find_slot(const hs_flame_tree *t, uint32_t parent, uint32_t function) {
    uint32_t i = slot_of(t, parent, function);
    for (;;) {
        uint32_t n = t->slots[i];
        if (n == 0) return i;
        const hs_flame_node *node = &t->nodes[n - 1];
        if (node->parent == parent && node->function == function) return i;
        i = (i + 1) & (t->nslots - 1);
    }
}

/* Doubles the slot table (kept at most half full) and re-inserts every node. */
static int grow_slots(hs_flame_tree *t) {
    uint32_t *old = t->slots;
    uint32_t old_n = t->nslots;
    if (old_n > UINT32_MAX / 4) return -1;
    t->nslots = old_n ? old_n * 2 : 1024;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->slots) {
        t->slots = old;
        t->nslots = old_n;
        return -1;
    }
    for (uint32_t n = 1; n < t->nnodes; n++) /* the root is never looked up */
        t->slots[find_slot(t, t->nodes[n].parent, t->nodes[n].function)] = n + 1;
    free(old);
    return 0;
}

static uint32_t add_node(hs_flame_tree *t, uint32_t parent, uint32_t function, uint32_t location,
                         int64_t line) {
    if (t->nnodes == t->cap) {
        if (t->cap > UINT32_MAX / 2 - 1) return HS_FLAME_NO_PARENT;
        uint32_t cap = t->cap ? t->cap * 2 : 256;
        hs_flame_node *nodes = realloc(t->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes) return HS_FLAME_NO_PARENT;
        t->nodes = nodes;
        t->cap = cap;
    }
    hs_flame_node *node = &t->nodes[t->nnodes];
    memset(node, 0, sizeof *node);
    node->parent = parent;
    node->function = function;
    node->location = location;
    node->line = line;
    return t->nnodes++;
}

/* The child of parent for the location's function, created on first sight. */
static uint32_t child_for(hs_flame_tree *t, uint32_t parent, const hs_profile *p, uint32_t location) {
    uint32_t function = p->locations[location].function;
    int64_t line = p->locations[location].line;
    if ((uint64_t)(t->nnodes + 1) * 2 > t->nslots && grow_slots(t) != 0) return HS_FLAME_NO_PARENT;
    uint32_t slot = find_slot(t, parent, function);
    if (t->slots[slot]) {
        hs_flame_node *node = &t->nodes[t->slots[slot] - 1];
        if (node->line != line) node->line = HS_FLAME_SEVERAL_LINES;
        return t->slots[slot] - 1;
    }
    uint32_t n = add_node(t, parent, function, location, line);
    if (n != HS_FLAME_NO_PARENT) t->slots[slot] = n + 1;
    return n;
}

static int all_zero(const int64_t *values, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (values[i] != 0) return 0;
    return 1;
}

/* Walks the sample's stack root first (its locations are leaf first). */
static int add_sample(hs_flame_tree *t, const hs_profile *p, const hs_sample *s) {
    uint32_t node = HS_FLAME_ROOT;
    for (uint32_t i = s->depth; i-- > 0;) {
        node = child_for(t, node, p, s->locations[i]);
        if (node == HS_FLAME_NO_PARENT) return -1;
    }
    for (uint32_t v = 0; v < t->nvalues; v++) t->nodes[node].self[v] += s->values[v];
    int64_t bytes = t->inuse_space < t->nvalues ? s->values[t->inuse_space] : 0;
    if (bytes > 0 && s->ages.age_seconds >= 0) {
        t->nodes[node].aged_bytes += bytes;
        t->nodes[node].age_seconds += (double)bytes * (double)s->ages.age_seconds;
    }
    return 0;
}

/* Each node's totals and mean age from the own values and byte-seconds add_sample left:
 * children come after their parent, so walking backwards finishes a node before adding
 * it to its parent. */
static void sum_totals(hs_flame_tree *t) {
    for (uint32_t n = 0; n < t->nnodes; n++)
        memcpy(t->nodes[n].total, t->nodes[n].self, sizeof t->nodes[n].total);
    for (uint32_t n = t->nnodes; n-- > 0;) {
        hs_flame_node *node = &t->nodes[n];
        if (n > 0) {
            hs_flame_node *up = &t->nodes[node->parent];
            for (uint32_t v = 0; v < t->nvalues; v++) up->total[v] += node->total[v];
            up->aged_bytes += node->aged_bytes;
            up->age_seconds += node->age_seconds;
        }
        node->age_seconds = node->aged_bytes > 0 ? node->age_seconds / (double)node->aged_bytes : -1;
    }
}

hs_flame_tree *hs_flame_tree_build(const hs_profile *p) {
    if (p->failed) {
        errno = ENOMEM;
        return NULL;
    }
    hs_flame_tree *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->nvalues = p->nsample_types;
    t->inuse_space = hs_profile_sample_type_index(p, "inuse_space");
    int rc = add_node(t, HS_FLAME_NO_PARENT, UINT32_MAX, UINT32_MAX, 0) == HS_FLAME_ROOT ? 0 : -1;
    for (uint32_t i = 0; i < p->nsamples && rc == 0; i++)
        if (!all_zero(p->samples[i].values, t->nvalues)) rc = add_sample(t, p, &p->samples[i]);
    if (rc != 0) {
        hs_flame_tree_free(t);
        errno = ENOMEM;
        return NULL;
    }
    sum_totals(t);
    return t;
}

void hs_flame_tree_free(hs_flame_tree *t) {
    if (!t) return;
    free(t->nodes);
    free(t->slots);
    free(t);
}

uint32_t hs_flame_tree_size(const hs_flame_tree *t) { return t->nnodes; }

const hs_flame_node *hs_flame_tree_node(const hs_flame_tree *t, uint32_t index) {
    return index < t->nnodes ? &t->nodes[index] : NULL;
}

uint32_t hs_flame_tree_child(const hs_flame_tree *t, uint32_t parent, uint32_t function) {
    if (t->nslots == 0) return HS_FLAME_NO_PARENT;
    uint32_t n = t->slots[find_slot(t, parent, function)];
    return n ? n - 1 : HS_FLAME_NO_PARENT;
}
