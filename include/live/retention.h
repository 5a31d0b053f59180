/* retention.h: who keeps the biggest sites alive: reference chains from a GC root to a few
 * tracked objects of the sites with the most in-use bytes, written as a second pprof
 * profile (the `-paths` file) whose "stacks" are those chains.
 *
 * Runs only when asked (`dump,paths=N[,budget=D]`; the OutOfMemoryError dump with
 * oom_paths=true). The walk is JVMTI FollowReferences from the roots, in a jvmtiEnv of its
 * own (created for the walk and disposed after it: every tag it set goes with it, and the
 * agent's own tags are untouched). Each FollowReferences stops the world; the walk is up to
 * three of them (retention_plan.h), each bounded by the time budget (paths_budget=, 1 s by
 * default), and the figures (objects reached, heap visited, longest pause, whether the
 * budget ended the walk) go into the profile's comments and back to the caller.
 *
 * Bounded memory: one 20-byte node per object we tag (its parent, the referring field,
 * its holder class, its group), and the JVM keeps one tag-map entry per tagged object. Both
 * stop at HS_RETENTION_NODE_BUDGET objects: past it, objects are neither tagged nor
 * followed, so a target reachable only through them is reported as not reached.
 *
 * Each sample of the paths profile: locations leaf first, the target's class, then each
 * reference from the target back to its root: "java.util.HashMap$Node.value" (field, with
 * its holder class), "java.lang.Object[]" (array element; index elided), the root last
 * ("[system class] LeakPaths", "[stack local]", "[JNI global]", ...). Values: the site's
 * in-use estimate shared equally among the site's targets that were reached. */
#ifndef HS_RETENTION_H
#define HS_RETENTION_H

#include <jvmti.h>
#include <stddef.h>
#include <stdint.h>

#include "live/live_tracker.h"
#include "profile/profile.h"
#include "live/retention_plan.h"
#include "sampling/sampled.h"

#define HS_RETENTION_NODE_BUDGET (1u << 21) /* 2M objects: 40 MB of nodes */
#define HS_RETENTION_PER_SITE 4             /* tracked objects whose path is sought */

/* What a retention walk reads, filled by its owner (control/). */
typedef struct hs_retention_source {
    JavaVM *vm;               /* the walk takes a JVMTI environment of its own */
    hs_sampled sampled;       /* sites: sizes, names */
    hs_live_slot *live;       /* the tracked objects (live_tracker.h) */
    const char *java_version; /* how the JVM marks object headers in a walk */
} hs_retention_source;

/* Walks the heap from the GC roots to the tracked objects of the `sites` sites with the
 * most in-use bytes and returns their paths as a profile (the OOM dump writes it beside
 * its profile, the `paths` command prints it, report.h): each sample has the string label
 * "site" = the site's rank (1 = most in-use bytes), and one comment per site
 * (hs_retention_format_site) says
 *   site <rank>: <site key>, <bytes> in use: <k> of <m> reached
 * budget_ms bounds each stop-the-world pause of the walk (HS_RETENTION_DEFAULT_BUDGET_MS
 * unless the operator asked for more). Fills *figures (may be NULL) with what the walk
 * reached and visited, for an answer to the operator (hs_retention_format_figures). JNI
 * thread, live tracking on. NULL on failure (logged). Free with hs_profile_free. */
hs_profile *hs_retention_build(const hs_retention_source *src, JNIEnv *jni, uint32_t sites, int64_t budget_ms,
                               hs_retention_figures *figures);

/* The paths file beside a profile: "d/heap.pb.gz" -> "d/heap-paths.pb.gz", "d/x.y" ->
 * "d/x-paths.y", "d/x" -> "d/x-paths". 0, or -1 when it does not fit. */
int hs_retention_path(const char *profile_path, char *out, size_t len);

/* --- the chain of one target (pure; exposed for tests) ------------------------------- */

#define HS_RETENTION_NO_NODE UINT32_MAX

typedef struct {
    uint32_t parent; /* node of the referrer; HS_RETENTION_NO_NODE for a root */
    uint32_t holder; /* node index of the class the edge's field or array belongs to
                      * (a class node < nclasses), or HS_RETENTION_NO_NODE */
    int32_t index;   /* JVMTI field index (FIELD, STATIC_FIELD) */
    uint8_t kind;    /* jvmtiHeapReferenceKind of the edge into this node; 0 = not reached */
    uint32_t group;  /* the group it was first reached in (retention.c); classes: none */
} hs_retention_node;

/* Follows parents from node `target` to its root, writing node indexes into out (target
 * first). Returns the count, or 0 when the target was not reached or the chain is longer
 * than max. */
uint32_t hs_retention_chain(const hs_retention_node *nodes, uint32_t nnodes, uint32_t target,
                            uint32_t *out, uint32_t max);

#endif
