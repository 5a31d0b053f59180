/* retention_plan.h: the pure decisions of the retention walk (retention.c), apart from the
 * JVM so they are unit-tested: which roots a pass follows, which pass comes next, when a
 * pass must stop for its pause to stay within the time budget, and the figures the walk
 * reports (what it reached, how much of the heap it visited, whether the budget ended it).
 *
 * A walk is up to four passes, each one JVMTI FollowReferences, each its own
 * stop-the-world pause bounded by the budget (see retention.c for why):
 *   HELD_SHARED    the long-lived roots only (not stack locals, JNI locals, monitors),
 *                  every group (the objects first reached below one root or one static
 *                  field) capped at a quota, so one huge structure cannot use up the pause;
 *   HELD_TARGETED  the long-lived roots again, following to the end the groups the quota
 *                  cut that hold an object already reached: the structures that hold
 *                  targets are searched before those that hold none;
 *   HELD           the long-lived roots again, following every group the quota cut;
 *   TRANSIENT      every root, following only objects no earlier pass reached: what only a
 *                  stack or JNI local holds.
 * A pass is skipped when it has nothing to add; one that the budget ended is the last. */
#ifndef HS_RETENTION_PLAN_H
#define HS_RETENTION_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_RETENTION_DEFAULT_BUDGET_MS 1000
#define HS_RETENTION_MAX_SITES 64

typedef enum {
    HS_PASS_HELD_SHARED = 0,
    HS_PASS_HELD_TARGETED,
    HS_PASS_HELD,
    HS_PASS_TRANSIENT,
    HS_PASS_DONE
} hs_retention_pass;

/* True for the roots a thread holds only for a while: a stack local, a JNI local, a
 * monitor (kind is a jvmtiHeapReferenceKind). The held passes do not follow them, so an
 * object that a static field (or a class loader, a JNI global, a thread object) also
 * reaches gets that path. */
bool hs_retention_root_transient(int kind);

typedef struct {
    hs_retention_pass pass; /* the pass that just ended */
    bool time_ended;        /* its deadline stopped it */
    bool groups_cut;        /* it left at least one group unfinished (the quota, or the
                             * targeted pass skipping a group without targets) */
    bool cut_with_targets;  /* one of those groups holds a reached target */
    uint32_t targets_left;  /* objects sought that no pass has reached yet */
} hs_retention_pass_result;

/* The pass after `done`, or HS_PASS_DONE. */
hs_retention_pass hs_retention_next_pass(const hs_retention_pass_result *done);

/* What the JVM spends after a pass's last callback, to keep out of the walk's share of the
 * budget: restoring the mark words it used. Up to JDK 24 (header_marks) that iterates over
 * every object of the heap, whatever the walk visited: on the shared 2-core machine, JDK 17,
 * about 200 ms below a GB and 1080 ms for 20 million objects; JDK 25 marks in a side bitmap
 * and its tail is a few ms. Before any pass has been measured (measured_tail_ns < 0), an
 * estimate from the objects in use (the live profile's estimate); after, the tail measured
 * in the previous pass; both with a margin. */
int64_t hs_retention_reserve_ns(double heap_objects, bool header_marks, int64_t measured_tail_ns);

/* How long a pass may call back, given the budget of its pause and the reserve: budget -
 * reserve, or 0 when less than a fifth of the budget would be left (the pause would then
 * be mostly the JVM's fixed cost, or exceed the budget: no pass). */
int64_t hs_retention_walk_window(int64_t budget_ns, int64_t reserve_ns);

/* True for a JVM whose heap walks restore object headers over the whole heap afterwards
 * (java.vm.version below 25, or unknown). */
bool hs_retention_header_marks(const char *java_vm_version);

/* --- the figures a walk reports ---------------------------------------------------------- */

typedef struct {
    char name[128];   /* the site's allocated class */
    char key[256];    /* the site as the report names it: "Cache.put:88 → byte[]" */
    uint32_t targets; /* its tracked objects sought */
    uint32_t reached; /* those whose path was found */
    double bytes;     /* its in-use estimate */
} hs_retention_site_figures;

typedef enum {
    HS_WALK_ALL_REACHED = 0, /* every object sought has its path */
    HS_WALK_COMPLETE,        /* everything reachable from the roots was visited */
    HS_WALK_BUDGET,          /* the time budget ended it */
    HS_WALK_NODE_LIMIT,      /* the node limit (memory) ended it */
    HS_WALK_TOO_SLOW         /* not walked: the JVM's fixed cost alone would exceed the budget */
} hs_retention_end;

typedef struct {
    uint32_t nsites;
    hs_retention_site_figures site[HS_RETENTION_MAX_SITES];
    uint32_t targets, reached;
    uint32_t reached_transient;       /* reached only through a stack or JNI local */
    uint64_t objects_visited;         /* objects the walk reached (primitive arrays too) */
    uint64_t bytes_visited;           /* their shallow sizes */
    uint64_t heap_used;               /* heap used after the last GC; 0 = unknown */
    double heap_objects;              /* objects in use: the live profile's estimate */
    uint32_t walks;                   /* passes run: stop-the-world pauses */
    int64_t longest_pause_ns, total_pause_ns;
    int64_t budget_ms;
    int64_t reserve_ns;               /* the JVM's fixed cost a pause was expected to have */
    hs_retention_end end;
} hs_retention_figures;

/* Adds what a pass saw to the figures: a pass's objects and bytes are the ones it reached
 * first (the caller counts each object once). */
void hs_retention_figures_add_pass(hs_retention_figures *f, int64_t pause_ns, uint64_t objects,
                                   uint64_t bytes);

/* Visited bytes over heap used, at most 1; -1 when the heap used is unknown. */
double hs_retention_visited_fraction(const hs_retention_figures *f);

/* One line for the operator and the profile's comments, e.g.
 *   "reached 9 of 12 objects (3 of 3 sites); visited 4.10 M of ~20.31 M objects, 812 MB
 *    of 4.13 GB used (19.7 %); 2 walks, longest pause 930 ms, 1300 ms in all (budget 1000
 *    ms per pause); the budget ended the walk"
 * Returns the length needed (like snprintf). */
size_t hs_retention_format_figures(const hs_retention_figures *f, char *buf, size_t len);

/* One line per site: "site 2: byte[], 120 MB in use: 4 of 4 reached". */
size_t hs_retention_format_site(const hs_retention_figures *f, uint32_t i, char *buf, size_t len);

#endif
