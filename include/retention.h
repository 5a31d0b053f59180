/* retention.h: who keeps the biggest sites alive: reference chains from a GC root to a few
 * tracked objects of the sites with the most in-use bytes, written as a second pprof
 * profile (the `-paths` file) whose "stacks" are those chains.
 *
 * Runs only when asked (`dump,paths=N`; the OutOfMemoryError dump may call
 * hs_retention_write too). The walk is JVMTI FollowReferences from the roots, in a
 * jvmtiEnv of its own (created for the walk and disposed after it: every tag it set goes
 * with it, and the agent's own tags are untouched). It stops the world for its duration.
 *
 * Bounded memory. JVMTI does the traversal and marks what it visited; we keep one 16-byte
 * node per object we tag (its parent, the referring field and its holder class), and the
 * JVM keeps one tag-map entry per tagged object. Both stop at HS_RETENTION_NODE_BUDGET
 * objects: past it, objects are neither tagged nor followed, so a target reachable only
 * through them is reported as not reached. (JFR's path-to-gc-roots reserves its
 * breadth-first edge queue at 5 % of the maximum heap, at least 32 MB, and walks depth-first,
 * at most 4000 deep, when it fills; JVMTI gives us no choice of order, so we bound the nodes,
 * at the same 32 MB, and stop following.) The walk also ends when every target is reached,
 * or at the time budget.
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

#include "agent.h"
#include "profile.h"

#define HS_RETENTION_NODE_BUDGET (1u << 21) /* 2M objects: 32 MB of nodes */
#define HS_RETENTION_PER_SITE 4             /* tracked objects whose path is sought */
#define HS_RETENTION_MAX_SITES 64

/* Walks and writes the paths profile of the `sites` sites with the most in-use bytes to
 * `path` (atomically). time_budget_ms bounds the walk. JNI thread, live tracking on.
 * 0, or -1 with one logged line. */
int hs_retention_write(hs_agent *agent, JNIEnv *jni, const char *path, uint32_t sites,
                       int64_t time_budget_ms);

/* The same walk, the paths profile returned instead of written (the `paths` command
 * prints it, report.h): each sample has the string label "site" = the site's rank (1 =
 * most in-use bytes), and one comment per site says
 *   site <rank>: <site key>, <bytes> bytes in use; <k> of its <m> tracked objects sought
 *   were reached
 * NULL on failure (logged). Free with hs_profile_free. */
hs_profile *hs_retention_build(hs_agent *agent, JNIEnv *jni, uint32_t sites,
                               int64_t time_budget_ms);

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
} hs_retention_node;

/* Follows parents from node `target` to its root, writing node indexes into out (target
 * first). Returns the count, or 0 when the target was not reached or the chain is longer
 * than max. */
uint32_t hs_retention_chain(const hs_retention_node *nodes, uint32_t nnodes, uint32_t target,
                            uint32_t *out, uint32_t max);

#endif
