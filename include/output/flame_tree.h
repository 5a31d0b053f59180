/* flame_tree.h: a profile's samples merged into one call tree, root first, the shape a
 * flame graph draws.
 *
 * Node 0 is the root (all samples). Every other node is one function called from its
 * parent's frame: samples whose stacks share a prefix of functions share the nodes of
 * that prefix (frames merge by function, not by line). Nodes are numbered in the order
 * they were created, so a parent's index is always below its children's.
 *
 * Each node also has the in-use mean age of what it holds: the mean of its samples'
 * age_seconds labels weighted by their inuse_space values (samples without the label or
 * without in-use bytes are left out), over the node and everything below it. Pure C,
 * reads hs_profile only. */
#ifndef HS_FLAME_TREE_H
#define HS_FLAME_TREE_H

#include <stdint.h>

#include "profile/profile.h"

#define HS_FLAME_ROOT 0u
#define HS_FLAME_NO_PARENT UINT32_MAX
/* line of a node whose merged frames were at different lines */
#define HS_FLAME_SEVERAL_LINES (-1)

typedef struct {
    uint32_t parent;   /* HS_FLAME_NO_PARENT for the root */
    uint32_t function; /* index into the profile's functions; UINT32_MAX for the root */
    uint32_t location; /* the first merged frame's location; UINT32_MAX for the root */
    int64_t line;      /* the frames' line (0 unknown), or HS_FLAME_SEVERAL_LINES */
    int64_t self[HS_PROFILE_MAX_VALUES];  /* samples whose leaf frame is this node */
    int64_t total[HS_PROFILE_MAX_VALUES]; /* this node and everything below it */
    int64_t aged_bytes; /* in-use bytes with an age, this node and everything below it */
    double age_seconds; /* their weighted mean age in seconds; < 0 when aged_bytes is 0 */
} hs_flame_node;

typedef struct hs_flame_tree hs_flame_tree;

/* Merges every sample of p (a sample whose values are all 0 is left out; one without
 * frames counts in the root's self). NULL on ENOMEM or for a failed profile. */
hs_flame_tree *hs_flame_tree_build(const hs_profile *p);
void hs_flame_tree_free(hs_flame_tree *t);

uint32_t hs_flame_tree_size(const hs_flame_tree *t);
const hs_flame_node *hs_flame_tree_node(const hs_flame_tree *t, uint32_t index);
/* The child of parent for function, or HS_FLAME_NO_PARENT when there is none. */
uint32_t hs_flame_tree_child(const hs_flame_tree *t, uint32_t parent, uint32_t function);

#endif
