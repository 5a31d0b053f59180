/* retention.c: reference chains from GC roots to the biggest sites' tracked objects,
 * written as the `-paths` pprof profile (see retention.h), within a bounded pause.
 *
 * What JVMTI lets us control. FollowReferences runs at a safepoint: its whole duration is
 * a pause of the application, so the walk itself must be bounded. The JVM (HotSpot 17-25)
 * first reports every root (each thread object with its stack and JNI locals, then JNI
 * globals, system classes, monitors, other VM roots), then visits objects from a LIFO stack
 * (depth first), reporting each reference once to heap_reference_callback; an object is pushed
 * only if the callback returned JVMTI_VISIT_OBJECTS for a reference to it, and visited
 * once a walk. So per reference we choose whether to follow (never in which order), and
 * JVMTI_VISIT_ABORT ends the walk at once. After the walk the JVM clears its marks: on
 * JDK 17 (mark words) that is a pass over every object of the heap, 0.2 s below a GB and
 * 1.1 s for 20 million objects on the shared 2-core machine, whatever the walk visited; on
 * JDK 25 (a side bitmap) a few ms.
 *
 * The design, per pause (retention_plan.h has the pure decisions):
 *  - A deadline: every 1024 callbacks the clock is read, and past start + budget - reserve
 *    the callback aborts. The reserve is the JVM's tail: estimated for the first pass from
 *    the objects in use (JDK 17) and measured after each pass. When it leaves less than a
 *    fifth of the budget, no (further) pass runs and the figures say so: on JDK 17 a
 *    large heap needs a larger budget= (the tail alone exceeds 1 s near 20 M objects).
 *  - Held roots first. The first passes return 0 for stack locals, JNI locals and
 *    monitors, so an object that a static field, a class loader, a JNI global or a thread
 *    object also reaches gets that chain ("LeakPaths.HOLDER", not "[stack local]"); a
 *    last pass follows those roots, only into objects no earlier pass reached.
 *  - Groups and a quota. The objects first reached below one root or one static field
 *    form a group; in the first pass a group may cost 65,536 reported references (an
 *    array costs its length: the JVM reports every element of an array it visits, so the
 *    quota stops an array before it is pushed). One huge structure then cannot use up the
 *    pause before the smaller ones (a leak's list is often smaller than the caches beside
 *    it) are searched. The next pass follows to the end the cut groups that hold a
 *    target already reached (a site's objects tend to live in one structure, so the
 *    roots that already led to targets are searched first), the one after every cut
 *    group. Which root holds the most targets is not known before walking; this is the
 *    nearest we get.
 *  - Stop early: the walk aborts as soon as every target has its path; primitive arrays
 *    (most of a heap's objects, and dead ends) are never followed nor tagged.
 *  - Several pauses, not one long one: each pass is its own FollowReferences, with the
 *    application running between them (at least as long as the last pause), tags kept in
 *    the walk's jvmtiEnv so later passes know what earlier ones reached. A pass the
 *    budget ended is the last: the next would cover the same ground first (the JVM's order
 *    is fixed), so a larger budget, asked for, is the way to see more. Chains built across
 *    passes may mix moments of a changing heap; leaks' holders do not change.
 * The figures (targets reached per site, objects and bytes visited against the heap used
 * and the objects in use, pauses, and what ended the walk) go to the profile's comments and
 * to the caller (hs_retention_figures), for the operator's answer. */
#include "live/retention.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampling/jvm_names.h"
#include "live/live_tracker.h"
#include "base/log.h"
#include "profile/profile.h"
#include "sampling/sample_table.h"
#include "live/suspects.h"
#include "sampling/symbols.h"
#include "base/wall_clock.h"

#define MAX_TARGETS (HS_RETENTION_MAX_SITES * HS_RETENTION_PER_SITE)
#define MAX_CHAIN 512  /* references followed back from a target */
#define MAX_INTERFACES 256

/* --- pure parts ------------------------------------------------------------------------ */

int hs_retention_path(const char *profile_path, char *out, size_t len) {
    const char *slash = strrchr(profile_path, '/');
    const char *base = slash ? slash + 1 : profile_path;
    const char *ext = strstr(base, ".pb.gz");
    if (!ext || ext[6] != '\0') ext = strrchr(base, '.');
    if (!ext || ext == base) ext = profile_path + strlen(profile_path);
    int n = snprintf(out, len, "%.*s-paths%s", (int)(ext - profile_path), profile_path, ext);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

uint32_t hs_retention_chain(const hs_retention_node *nodes, uint32_t nnodes, uint32_t target,
                            uint32_t *out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t x = target; x != HS_RETENTION_NO_NODE; x = nodes[x].parent) {
        if (x >= nnodes || nodes[x].kind == 0 || n == max) return 0;
        out[n++] = x;
    }
    return n;
}

/* --- choosing the sites and their objects ---------------------------------------------- */

typedef struct {
    uint32_t bucket;
    double bytes, objects; /* in-use estimate */
    uint32_t ntargets, reached;
} site;

typedef struct {
    const hs_retention_source *src;
    JNIEnv *jni;
    jvmtiEnv *env; /* the walk's own */
    site sites[HS_RETENTION_MAX_SITES];
    uint32_t nsites;
    uint32_t target_site[MAX_TARGETS]; /* target j (node first_target + j) belongs to */
    uint32_t ntargets;
    uint32_t first_target;
    int tag_failed;
    uint64_t heap_used;
    double heap_objects; /* in use, every site: the live profile's estimate */
} plan;

/* The n buckets with the most in-use bytes (largest first). */
static int choose_sites(plan *p, uint32_t n) {
    hs_live_view view;
    int rc = hs_live_collect(p->src->live, p->jni, hs_sample_table_count(p->src->sampled.samples), &view);
    for (uint32_t b = 1; rc == 0 && b <= view.nbuckets; b++) {
        double size, scale;
        if (!(view.live_weight[b] > 0) || !hs_suspect_bucket_info(b, &size, &scale, (void *)&p->src->sampled))
            continue;
        site s = {.bucket = b, .objects = view.live_weight[b] * scale};
        s.bytes = s.objects * size;
        p->heap_objects += s.objects;
        uint32_t i = p->nsites < n ? p->nsites++ : n;
        for (; i > 0 && p->sites[i - 1].bytes < s.bytes; i--)
            if (i < n) p->sites[i] = p->sites[i - 1];
        if (i < n) p->sites[i] = s;
    }
    p->heap_used = view.heap.valid ? view.heap.used_bytes : 0;
    hs_live_view_free(&view);
    return rc;
}

/* Tags a tracked object of a chosen site through its weak ref: no strong reference of ours
 * (a JNI local would be a root) may hold a target during the walk. */
static void tag_target(uint32_t bucket, jweak ref, void *ctx) {
    plan *p = ctx;
    for (uint32_t i = 0; i < p->nsites; i++) {
        site *s = &p->sites[i];
        if (s->bucket != bucket || s->ntargets == HS_RETENTION_PER_SITE) continue;
        if ((*p->jni)->IsSameObject(p->jni, ref, NULL)) return; /* collected since */
        jlong tag = (jlong)(p->first_target + p->ntargets) + 1;
        if ((*p->env)->SetTag(p->env, ref, tag) != JVMTI_ERROR_NONE) {
            p->tag_failed = 1;
            return;
        }
        p->target_site[p->ntargets++] = i;
        s->ntargets++;
        return;
    }
}

/* --- the walk ---------------------------------------------------------------------------- */

#define NO_GROUP UINT32_MAX
/* References a group may cost in the first pass: 10 to 70 ms of callbacks. */
#define GROUP_QUOTA (UINT64_C(1) << 16)
#define CHECK_EVERY 1024 /* callbacks between two clock reads */

typedef struct {
    uint64_t work;      /* references its followed objects will report (arrays: their length) */
    uint8_t cut;        /* the first pass's quota stopped it */
    uint8_t has_target; /* a target was reached in it */
} group;

typedef struct {
    hs_retention_node *nodes;
    uint32_t nnodes, cap;
    uint32_t nclasses;     /* nodes 0 .. nclasses-1: the loaded classes, pre-tagged */
    uint8_t *leaf_class;   /* per class: primitive arrays, which refer to nothing */
    uint32_t first_target; /* then the targets, pre-tagged */
    uint32_t ntargets, reached;
    group *groups;
    uint32_t ngroups, gcap;
    /* the pass under way */
    hs_retention_pass pass;
    uint32_t pass_first_node; /* nodes from here on were made in this pass */
    int64_t deadline, last_clock, first_callback;
    uint64_t references;           /* callbacks, all passes */
    uint64_t objects, bytes;       /* reached first in this pass, primitive arrays too */
    bool time_ended, groups_cut, node_limit, failed;
} walk;

static uint32_t node_of(jlong tag) { return tag > 0 ? (uint32_t)(tag - 1) : HS_RETENTION_NO_NODE; }

static bool is_target(const walk *w, uint32_t node) {
    return node >= w->first_target && node < w->first_target + w->ntargets;
}

static uint32_t new_node(walk *w) {
    if (w->nnodes >= HS_RETENTION_NODE_BUDGET) {
        w->node_limit = true;
        return HS_RETENTION_NO_NODE;
    }
    if (w->nnodes == w->cap) {
        uint32_t cap = w->cap * 2 < HS_RETENTION_NODE_BUDGET ? w->cap * 2 : HS_RETENTION_NODE_BUDGET;
        hs_retention_node *grown = realloc(w->nodes, (size_t)cap * sizeof *grown);
        if (!grown) {
            w->failed = true;
            return HS_RETENTION_NO_NODE;
        }
        w->nodes = grown;
        w->cap = cap;
    }
    return w->nnodes++;
}

/* The group of an object first reached from `parent`: its parent's, or a new one below a
 * root or a class (one group per static field's object). NO_GROUP when out of memory. */
static uint32_t group_below(walk *w, uint32_t parent) {
    if (parent != HS_RETENTION_NO_NODE && parent >= w->nclasses) return w->nodes[parent].group;
    if (w->ngroups == w->gcap) {
        uint32_t cap = w->gcap ? w->gcap * 2 : 1024;
        group *grown = realloc(w->groups, (size_t)cap * sizeof *grown);
        if (!grown) {
            w->failed = true;
            return NO_GROUP;
        }
        w->groups = grown;
        w->gcap = cap;
    }
    w->groups[w->ngroups] = (group){0, 0, 0};
    return w->ngroups++;
}

static void set_edge(walk *w, uint32_t node, jvmtiHeapReferenceKind kind,
                     const jvmtiHeapReferenceInfo *info, jlong class_tag, jlong referrer_class_tag,
                     uint32_t parent) {
    hs_retention_node *n = &w->nodes[node];
    n->kind = (uint8_t)kind;
    n->parent = parent;
    n->index = (kind == JVMTI_HEAP_REFERENCE_FIELD || kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD)
                   ? info->field.index : -1;
    /* The class the reference belongs to: a static field's is the referrer itself (a class
     * object), a root's the referree's own class, any other's the referrer's class. */
    uint32_t holder = kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD ? parent
                      : parent == HS_RETENTION_NO_NODE          ? node_of(class_tag)
                                                                : node_of(referrer_class_tag);
    n->holder = holder < w->nclasses ? holder : HS_RETENTION_NO_NODE;
}

/* Every CHECK_EVERY callbacks: past the pass's deadline? */
static bool out_of_time(walk *w) {
    if ((++w->references & (CHECK_EVERY - 1)) != 0) return false;
    w->last_clock = hs_monotonic_nanos();
    return w->last_clock > w->deadline;
}

/* Whether group g may follow one more object that will report `work` references: always,
 * but in the first pass, where past the quota the group is cut (the JVM reports every
 * element of an array it visits, so the quota must stop an array before it is followed),
 * and in the targeted pass, which leaves the cut groups without a target for later. */
static bool within_quota(walk *w, uint32_t g, uint64_t work) {
    group *grp = &w->groups[g];
    if (w->pass == HS_PASS_HELD_SHARED && grp->work + work > GROUP_QUOTA) {
        grp->cut = 1;
        w->groups_cut = true;
        return false;
    }
    if (w->pass == HS_PASS_HELD_TARGETED && grp->cut && !grp->has_target) {
        w->groups_cut = true; /* left for the next pass */
        return false;
    }
    w->groups[g].work += work;
    return true;
}

/* A reference into an object that already has a node: a class or a target met for the
 * first time gets its edge; one seen before is followed again only where an earlier pass
 * may have left something below it unvisited. */
static jint known_object(walk *w, uint32_t node, jvmtiHeapReferenceKind kind,
                         const jvmtiHeapReferenceInfo *info, jlong class_tag,
                         jlong referrer_class_tag, uint32_t parent, uint64_t work) {
    if (node >= w->nnodes) return 0;
    hs_retention_node *n = &w->nodes[node];
    if (n->kind == 0) {
        set_edge(w, node, kind, info, class_tag, referrer_class_tag, parent);
        if (!is_target(w, node)) return JVMTI_VISIT_OBJECTS; /* a class */
        n->group = group_below(w, parent);
        if (n->group == NO_GROUP) return JVMTI_VISIT_ABORT;
        w->groups[n->group].has_target = 1;
        if (++w->reached == w->ntargets) return JVMTI_VISIT_ABORT; /* every target has its path */
        return within_quota(w, n->group, work) ? JVMTI_VISIT_OBJECTS : 0;
    }
    /* The last pass comes after held passes that visited everything below what they
     * reached; the others follow it again (the JVM visits each object once a pass): a
     * group that is complete may still lead to a class, and the class to a cut group. */
    return w->pass == HS_PASS_TRANSIENT && node < w->pass_first_node ? 0 : JVMTI_VISIT_OBJECTS;
}

/* Called by FollowReferences for every reference, roots first; no JNI or JVMTI here. */
static jint JNICALL on_reference(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                                 jlong class_tag, jlong referrer_class_tag, jlong size,
                                 jlong *tag_ptr, jlong *referrer_tag_ptr, jint length,
                                 void *user_data) {
    walk *w = user_data;
    if (w->first_callback == 0) w->first_callback = hs_monotonic_nanos();
    if (out_of_time(w)) {
        w->time_ended = true;
        return JVMTI_VISIT_ABORT;
    }
    uint32_t parent = HS_RETENTION_NO_NODE;
    if (referrer_tag_ptr) { /* not a root: the referrer must be one of ours */
        parent = node_of(*referrer_tag_ptr);
        if (parent == HS_RETENTION_NO_NODE) return 0; /* past the budget: not followed */
    } else if (w->pass != HS_PASS_TRANSIENT && hs_retention_root_transient(kind)) {
        return 0; /* a stack or JNI local: the last pass's */
    }
    /* Following an object costs a callback per reference it holds: an object array's
     * length, a few for an instance, none for a primitive array (a dead end). */
    uint32_t cls = node_of(class_tag);
    bool leaf = cls < w->nclasses && w->leaf_class[cls];
    uint64_t work = 1 + (length > 0 && !leaf ? (uint64_t)length : 0);
    uint32_t node = node_of(*tag_ptr);
    if (node != HS_RETENTION_NO_NODE)
        return known_object(w, node, kind, info, class_tag, referrer_class_tag, parent, work);
    bool new_referrer = parent == HS_RETENTION_NO_NODE || parent >= w->pass_first_node;
    if (leaf) { /* a primitive array: never followed nor tagged */
        w->objects += new_referrer;
        w->bytes += new_referrer ? (uint64_t)size : 0;
        return 0;
    }
    uint32_t g = group_below(w, parent);
    if (g == NO_GROUP) return JVMTI_VISIT_ABORT;
    if (!within_quota(w, g, work)) return 0;
    node = new_node(w);
    if (node == HS_RETENTION_NO_NODE) return w->failed ? JVMTI_VISIT_ABORT : 0;
    set_edge(w, node, kind, info, class_tag, referrer_class_tag, parent);
    w->nodes[node].group = g;
    w->objects++;
    w->bytes += (uint64_t)size;
    *tag_ptr = (jlong)node + 1;
    return JVMTI_VISIT_OBJECTS;
}

/* A jvmtiEnv for the walk alone: disposing of it drops every tag the walk set. */
static jvmtiEnv *walk_env(const hs_retention_source *src) {
    jvmtiEnv *env = NULL;
    if ((*src->vm)->GetEnv(src->vm, (void **)&env, JVMTI_VERSION_1_2) != JNI_OK || !env)
        return NULL;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_tag_objects = 1;
    if ((*env)->AddCapabilities(env, &caps) != JVMTI_ERROR_NONE) {
        (*env)->DisposeEnvironment(env);
        return NULL;
    }
    return env;
}

/* True for the signature of a primitive array class ("[J"): its objects refer to nothing,
 * so the walk need not tag them (they are often the most numerous objects of a heap). */
static bool refers_to_nothing(jvmtiEnv *env, jclass klass) {
    char *sig = NULL;
    if ((*env)->GetClassSignature(env, klass, &sig, NULL) != JVMTI_ERROR_NONE || !sig) return false;
    bool leaf = sig[0] == '[' && sig[1] != '[' && sig[1] != 'L';
    (*env)->Deallocate(env, (unsigned char *)sig);
    return leaf;
}

/* Tags every loaded class with its node number + 1, keeping no reference to any (a JNI
 * local would make each class a root of the walk), and notes the primitive array classes.
 * 0 or -1. */
static int tag_classes(jvmtiEnv *env, JNIEnv *jni, walk *w) {
    jclass *classes = NULL;
    jint n = 0;
    if ((*env)->GetLoadedClasses(env, &n, &classes) != JVMTI_ERROR_NONE) return -1;
    w->nclasses = (uint32_t)n;
    w->leaf_class = calloc((size_t)n + 1, 1);
    int rc = w->leaf_class ? 0 : -1;
    for (jint i = 0; i < n; i++) {
        if (rc == 0 && (*env)->SetTag(env, classes[i], (jlong)i + 1) != JVMTI_ERROR_NONE) rc = -1;
        if (rc == 0) w->leaf_class[i] = refers_to_nothing(env, classes[i]);
        (*jni)->DeleteLocalRef(jni, classes[i]);
    }
    (*env)->Deallocate(env, (unsigned char *)classes);
    return rc;
}

/* After the walk: the tagged classes by node number (NULL for one unloaded since), as
 * local refs of the caller's frame. *raw is JVMTI memory for the caller to Deallocate. */
static jclass *classes_by_node(jvmtiEnv *env, JNIEnv *jni, jint nclasses, jclass **raw) {
    jint n = 0;
    jclass *by_node = calloc((size_t)nclasses + 1, sizeof *by_node);
    /* room for the local refs GetLoadedClasses returns (a few more classes may load) */
    if ((*jni)->EnsureLocalCapacity(jni, nclasses + 1024) != 0) (*jni)->ExceptionClear(jni);
    if (!by_node || (*env)->GetLoadedClasses(env, &n, raw) != JVMTI_ERROR_NONE) {
        free(by_node);
        return NULL;
    }
    for (jint i = 0; i < n; i++) {
        jlong tag = 0;
        if ((*env)->GetTag(env, (*raw)[i], &tag) == JVMTI_ERROR_NONE && tag >= 1 && tag <= nclasses)
            by_node[tag - 1] = (*raw)[i];
    }
    return by_node;
}

/* One pass: FollowReferences from every root under the pass's rules, its pause timed.
 * Returns the pause in ns, or -1 when FollowReferences failed. */
static int64_t run_pass(jvmtiEnv *env, walk *w, hs_retention_pass pass, int64_t window_ns,
                        int64_t *tail_ns) {
    w->pass = pass;
    w->pass_first_node = w->nnodes;
    w->objects = w->bytes = 0;
    w->time_ended = w->groups_cut = false;
    jvmtiHeapCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.heap_reference_callback = on_reference;
    int64_t start = hs_monotonic_nanos();
    w->last_clock = start;
    w->first_callback = 0;
    uint64_t references = w->references;
    w->deadline = start + window_ns;
    jvmtiError err = (*env)->FollowReferences(env, 0, NULL, NULL, &callbacks, w);
    int64_t end = hs_monotonic_nanos();
    *tail_ns = end - w->last_clock;
    double head_ms = w->first_callback ? (double)(w->first_callback - start) / 1e6 : -1.0;
    hs_debug("paths: pass %d: %.1f ms to the first callback, %llu callbacks, %.1f ms after the "
             "last clock read", (int)pass, head_ms,
             (unsigned long long)(w->references - references), (double)*tail_ns / 1e6);
    if (err == JVMTI_ERROR_NONE) return end - start;
    hs_warn("paths: FollowReferences failed (JVMTI error %d)", err);
    return -1;
}

/* True when a group the quota cut holds a reached target. */
static bool cut_with_targets(const walk *w) {
    for (uint32_t g = 0; g < w->ngroups; g++)
        if (w->groups[g].cut && w->groups[g].has_target) return true;
    return false;
}

/* Lets the application run between two pauses, as long as the last one lasted. */
static void pause_between(int64_t last_pause_ns) {
    int64_t ns = last_pause_ns > 100000000 ? last_pause_ns : 100000000;
    struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    nanosleep(&ts, NULL);
}

/* Tags the targets, then runs the passes (retention_plan.h) until every target is reached,
 * the budget ends one, or none is left. 0 or -1. */
static int run_walk(jvmtiEnv *env, plan *p, walk *w, int64_t budget_ms,
                    hs_retention_figures *fig) {
    p->env = env;
    p->first_target = w->nclasses;
    if (hs_live_each_object(p->src->live, tag_target, p) != 0 || p->tag_failed) return -1;
    w->first_target = p->first_target;
    w->ntargets = p->ntargets;
    w->cap = w->nclasses + w->ntargets + 4096;
    w->nodes = calloc(w->cap, sizeof *w->nodes);
    if (!w->nodes) return -1;
    w->nnodes = w->nclasses + w->ntargets;
    for (uint32_t i = 0; i < w->nnodes; i++) {
        w->nodes[i].parent = HS_RETENTION_NO_NODE;
        w->nodes[i].group = NO_GROUP;
    }
    fig->end = HS_WALK_ALL_REACHED;
    if (w->ntargets == 0) return 0; /* nothing to look for: no walk */
    bool header_marks = hs_retention_header_marks(p->src->java_version);
    bool too_slow = false;
    int64_t tail = -1;
    hs_retention_pass pass = HS_PASS_HELD_SHARED;
    while (pass != HS_PASS_DONE) {
        fig->reserve_ns = hs_retention_reserve_ns(p->heap_objects, header_marks, tail);
        int64_t window = hs_retention_walk_window(budget_ms * 1000000, fig->reserve_ns);
        if (window == 0) {
            too_slow = true;
            break;
        }
        if (fig->walks > 0) pause_between(fig->longest_pause_ns);
        int64_t pause = run_pass(env, w, pass, window, &tail);
        if (pause < 0 || w->failed) return -1;
        hs_retention_figures_add_pass(fig, pause, w->objects, w->bytes);
        hs_debug("paths: pass %d: pause %.1f ms (reserve %.1f ms, tail %.1f ms), %llu objects, "
                 "%u of %u reached%s%s", (int)pass, (double)pause / 1e6,
                 (double)fig->reserve_ns / 1e6, (double)tail / 1e6,
                 (unsigned long long)w->objects, w->reached, w->ntargets,
                 w->time_ended ? ", time ended" : "", w->groups_cut ? ", groups cut" : "");
        hs_retention_pass_result done = {pass, w->time_ended, w->groups_cut,
                                         cut_with_targets(w), w->ntargets - w->reached};
        pass = hs_retention_next_pass(&done);
    }
    fig->end = w->reached == w->ntargets ? HS_WALK_ALL_REACHED
               : too_slow                ? HS_WALK_TOO_SLOW
               : w->time_ended           ? HS_WALK_BUDGET
               : w->node_limit           ? HS_WALK_NODE_LIMIT
                                         : HS_WALK_COMPLETE;
    return 0;
}

/* --- names ------------------------------------------------------------------------------- */

static void class_name(jvmtiEnv *env, jclass klass, char *out, size_t len) {
    char *sig = NULL;
    if (klass && (*env)->GetClassSignature(env, klass, &sig, NULL) == JVMTI_ERROR_NONE && sig) {
        hs_class_name(sig, out, len);
        (*env)->Deallocate(env, (unsigned char *)sig);
    } else {
        snprintf(out, len, "[unknown class]");
    }
}

static jint field_count(jvmtiEnv *env, jclass klass) {
    jint n = 0;
    jfieldID *fields = NULL;
    if ((*env)->GetClassFields(env, klass, &n, &fields) != JVMTI_ERROR_NONE) return 0;
    (*env)->Deallocate(env, (unsigned char *)fields);
    return n;
}

typedef struct {
    jclass list[MAX_INTERFACES];
    uint32_t n;
} interfaces;

/* Adds klass's interfaces and, recursively, their superinterfaces (each once). */
static void add_interfaces(jvmtiEnv *env, JNIEnv *jni, jclass klass, interfaces *seen) {
    jint n = 0;
    jclass *ifs = NULL;
    if ((*env)->GetImplementedInterfaces(env, klass, &n, &ifs) != JVMTI_ERROR_NONE) return;
    for (jint i = 0; i < n; i++) {
        bool known = false;
        for (uint32_t j = 0; j < seen->n && !known; j++)
            known = (*jni)->IsSameObject(jni, seen->list[j], ifs[i]);
        if (known || seen->n == MAX_INTERFACES) continue;
        seen->list[seen->n++] = ifs[i];
        add_interfaces(env, jni, ifs[i], seen);
    }
    (*env)->Deallocate(env, (unsigned char *)ifs);
}

/* The name of field `index` as JVMTI numbers them: the fields of every interface C
 * implements come first, then those of C's superclasses from java.lang.Object down, then
 * C's own, each class in GetClassFields order (an interface: its superinterfaces' fields,
 * then its own). 0, or -1 when the index does not resolve. */
static int field_name(jvmtiEnv *env, JNIEnv *jni, jclass klass, jint index, char *out, size_t len) {
    interfaces seen = {.n = 0};
    jclass chain[64];
    int depth = 0;
    jboolean is_interface = JNI_FALSE;
    (*env)->IsInterface(env, klass, &is_interface);
    if (is_interface) {
        add_interfaces(env, jni, klass, &seen);
        chain[depth++] = klass;
    } else {
        for (jclass k = klass; k && depth < 64; k = (*jni)->GetSuperclass(jni, k)) {
            chain[depth++] = k;
            add_interfaces(env, jni, k, &seen);
        }
    }
    jint base = 0;
    for (uint32_t i = 0; i < seen.n; i++) base += field_count(env, seen.list[i]);
    for (int d = depth - 1; d >= 0; d--) {
        jint n = 0;
        jfieldID *fields = NULL;
        if ((*env)->GetClassFields(env, chain[d], &n, &fields) != JVMTI_ERROR_NONE) return -1;
        int rc = 1;
        if (index >= base && index < base + n) {
            char *name = NULL;
            rc = (*env)->GetFieldName(env, chain[d], fields[index - base], &name, NULL, NULL) ==
                         JVMTI_ERROR_NONE ? 0 : -1;
            if (rc == 0) snprintf(out, len, "%s", name);
            (*env)->Deallocate(env, (unsigned char *)name);
        }
        (*env)->Deallocate(env, (unsigned char *)fields);
        if (rc <= 0) return rc;
        base += n;
    }
    return -1;
}

static const char *root_name(uint8_t kind) {
    switch (kind) {
    case JVMTI_HEAP_REFERENCE_JNI_GLOBAL: return "[JNI global]";
    case JVMTI_HEAP_REFERENCE_SYSTEM_CLASS: return "[system class]";
    case JVMTI_HEAP_REFERENCE_MONITOR: return "[monitor]";
    case JVMTI_HEAP_REFERENCE_STACK_LOCAL: return "[stack local]";
    case JVMTI_HEAP_REFERENCE_JNI_LOCAL: return "[JNI local]";
    case JVMTI_HEAP_REFERENCE_THREAD: return "[thread]";
    case JVMTI_HEAP_REFERENCE_CLASS: return "[class]";
    case JVMTI_HEAP_REFERENCE_CLASS_LOADER: return "[class loader]";
    case JVMTI_HEAP_REFERENCE_SIGNERS: return "[signers]";
    case JVMTI_HEAP_REFERENCE_PROTECTION_DOMAIN: return "[protection domain]";
    case JVMTI_HEAP_REFERENCE_INTERFACE: return "[interface]";
    case JVMTI_HEAP_REFERENCE_CONSTANT_POOL: return "[constant pool]";
    case JVMTI_HEAP_REFERENCE_SUPERCLASS: return "[superclass]";
    default: return "[other root]";
    }
}

/* The frame name of the reference into node x. */
static void edge_name(jvmtiEnv *env, JNIEnv *jni, jclass *classes, const walk *w, uint32_t x,
                      char *out, size_t len) {
    const hs_retention_node *n = &w->nodes[x];
    char holder[512] = "[unknown class]", field[256];
    if (n->holder != HS_RETENTION_NO_NODE) class_name(env, classes[n->holder], holder, sizeof holder);
    if (n->kind == JVMTI_HEAP_REFERENCE_FIELD || n->kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD) {
        if ((*jni)->PushLocalFrame(jni, MAX_INTERFACES + 80) != 0) {
            (*jni)->ExceptionClear(jni);
            snprintf(out, len, "%s.[field %d]", holder, n->index);
            return;
        }
        int found = n->holder != HS_RETENTION_NO_NODE && classes[n->holder] &&
                    field_name(env, jni, classes[n->holder], n->index, field, sizeof field) == 0;
        (*jni)->PopLocalFrame(jni, NULL);
        if (found) snprintf(out, len, "%s.%s", holder, field);
        else snprintf(out, len, "%s.[field %d]", holder, n->index);
    } else if (n->kind == JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT) {
        snprintf(out, len, "%s", holder);
    } else if (n->parent == HS_RETENTION_NO_NODE && x < w->nclasses) {
        class_name(env, classes[x], holder, sizeof holder); /* the root is a class itself */
        snprintf(out, len, "%s %s", root_name(n->kind), holder);
    } else {
        snprintf(out, len, "%s", root_name(n->kind));
    }
}

/* --- the profile --------------------------------------------------------------------------- */

typedef struct {
    hs_profile *profile;
    char **names; /* function i's name, for dedup */
    uint32_t nnames, cap;
} frames;

static uint32_t location_named(frames *f, const char *name) {
    for (uint32_t i = 0; i < f->nnames; i++)
        if (strcmp(f->names[i], name) == 0) return hs_profile_add_location(f->profile, i, 0);
    if (f->nnames == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 64;
        char **grown = realloc(f->names, cap * sizeof *grown);
        if (!grown) return UINT32_MAX;
        f->names = grown;
        f->cap = cap;
    }
    char *copy = strdup(name);
    uint32_t fn = copy ? hs_profile_add_function(f->profile, name, name, "", 0) : UINT32_MAX;
    if (fn == UINT32_MAX || fn != f->nnames) {
        free(copy);
        return UINT32_MAX;
    }
    f->names[f->nnames++] = copy;
    return hs_profile_add_location(f->profile, fn, 0);
}

/* One sample per reached target: its class, then the chain back to the root. */
static void add_target(frames *f, jvmtiEnv *env, JNIEnv *jni, jclass *classes, const walk *w,
                       const site *s, uint32_t site_rank, const char *leaf, uint32_t node) {
    static uint32_t chain[MAX_CHAIN];
    uint32_t locs[MAX_CHAIN + 1];
    uint32_t n = hs_retention_chain(w->nodes, w->nnodes, node, chain, MAX_CHAIN);
    if (n == 0) return;
    locs[0] = location_named(f, leaf);
    for (uint32_t i = 0; i < n; i++) {
        char name[1024];
        edge_name(env, jni, classes, w, chain[i], name, sizeof name);
        locs[i + 1] = location_named(f, name);
    }
    int64_t values[2] = {llround(s->objects / s->reached), llround(s->bytes / s->reached)};
    char rank[16];
    snprintf(rank, sizeof rank, "%u", site_rank);
    if (hs_profile_add_sample(f->profile, locs, n + 1, values, 0) == 0)
        hs_profile_label_samples(f->profile, f->profile->nsamples - 1, "site", rank);
}

static void add_samples(frames *f, jvmtiEnv *env, JNIEnv *jni, jclass *classes, const walk *w,
                        const plan *p, const hs_retention_figures *fig) {
    for (uint32_t j = 0; j < p->ntargets; j++) {
        const site *s = &p->sites[p->target_site[j]];
        if (w->nodes[w->first_target + j].kind != 0)
            add_target(f, env, jni, classes, w, s, p->target_site[j] + 1,
                       fig->site[p->target_site[j]].name,
                       w->first_target + j);
    }
}

/* True when the chain of a reached target starts at a stack or JNI local. */
static bool reached_through_transient(const walk *w, uint32_t node) {
    static uint32_t chain[MAX_CHAIN];
    uint32_t n = hs_retention_chain(w->nodes, w->nnodes, node, chain, MAX_CHAIN);
    return n > 0 && hs_retention_root_transient(w->nodes[chain[n - 1]].kind);
}

/* The per-site and overall "reached" figures, once the walk is over. */
static void fill_figures(hs_retention_figures *fig, walk *w, plan *p, int64_t budget_ms) {
    for (uint32_t j = 0; j < p->ntargets; j++) {
        uint32_t node = w->first_target + j;
        if (w->nodes[node].kind == 0) continue;
        p->sites[p->target_site[j]].reached++;
        fig->reached_transient += reached_through_transient(w, node);
    }
    fig->nsites = p->nsites;
    for (uint32_t i = 0; i < p->nsites; i++) {
        const site *s = &p->sites[i];
        hs_retention_site_figures *sf = &fig->site[i];
        hs_bucket_snapshot b;
        const char *name = hs_sample_table_get(p->src->sampled.samples, s->bucket, &b) == 0
                               ? hs_symbols_class_name(p->src->sampled.symbols, b.key.class_id) : NULL;
        snprintf(sf->name, sizeof sf->name, "%s", name ? name : "[unknown]");
        hs_suspect_site_key(&p->src->sampled, s->bucket, sf->key, sizeof sf->key);
        sf->targets = s->ntargets;
        sf->reached = s->reached;
        sf->bytes = s->bytes;
    }
    fig->targets = w->ntargets;
    fig->reached = w->reached;
    fig->heap_used = p->heap_used;
    fig->heap_objects = p->heap_objects;
    fig->budget_ms = budget_ms;
}

static void add_comments(hs_profile *prof, const walk *w, const plan *p,
                         const hs_retention_figures *fig) {
    char line[1024];
    hs_profile_add_comment(prof, "heapsampler %s: retention paths (root first) to %u tracked "
                                 "objects of the %u sites with the most in-use bytes",
                           HEAPSAMPLER_VERSION, w->ntargets, p->nsites);
    hs_retention_format_figures(fig, line, sizeof line);
    hs_profile_add_comment(prof, "walk: %s", line);
    for (uint32_t i = 0; i < fig->nsites; i++) {
        hs_retention_format_site(fig, i, line, sizeof line);
        hs_profile_add_comment(prof, "%s", line);
    }
    hs_profile_add_comment(prof,
                           "walk detail: %u objects followed, %llu references reported; each "
                           "pause is one FollowReferences (it stops the world); stack and JNI "
                           "locals are followed last, for what nothing longer-lived holds",
                           w->nnodes - w->nclasses - w->ntargets,
                           (unsigned long long)w->references);
    hs_profile_add_comment(prof, "values: each site's in-use estimate, shared equally among its "
                                 "objects whose path was found");
}

static hs_profile *build_profile(jvmtiEnv *env, JNIEnv *jni, jclass *classes, const walk *w,
                                 const plan *p, const hs_retention_figures *fig) {
    hs_profile *prof = hs_profile_new();
    frames f = {.profile = prof};
    if (!prof || hs_profile_add_sample_type(prof, "inuse_objects", "count") < 0 ||
        hs_profile_add_sample_type(prof, "inuse_space", "bytes") < 0 ||
        hs_profile_set_default_sample_type(prof, "inuse_space") != 0) {
        hs_profile_free(prof);
        return NULL;
    }
    add_comments(prof, w, p, fig);
    add_samples(&f, env, jni, classes, w, p, fig);
    for (uint32_t i = 0; i < f.nnames; i++) free(f.names[i]);
    free(f.names);
    if (!prof->failed) return prof;
    hs_profile_free(prof);
    return NULL;
}

/* --- the whole -------------------------------------------------------------------------------- */

static hs_profile *walk_and_build(const hs_retention_source *src, JNIEnv *jni, plan *p, int64_t budget_ms,
                                  hs_retention_figures *fig) {
    jvmtiEnv *env = walk_env(src);
    if (!env) {
        hs_error("paths: no JVMTI environment with the tagging capability");
        return NULL;
    }
    jclass *raw = NULL, *classes = NULL;
    walk w = {0};
    fig->budget_ms = budget_ms;
    int rc = tag_classes(env, jni, &w) == 0 ? run_walk(env, p, &w, budget_ms, fig) : -1;
    if (rc == 0) {
        fill_figures(fig, &w, p, budget_ms);
        classes = classes_by_node(env, jni, (jint)w.nclasses, &raw);
    }
    hs_profile *prof = classes ? build_profile(env, jni, classes, &w, p, fig) : NULL;
    if (prof) {
        char line[1024];
        hs_retention_format_figures(fig, line, sizeof line);
        hs_info("paths: %s", line);
    } else {
        hs_error("paths: the retention walk failed or ran out of memory");
    }
    free(classes);
    if (raw) (*env)->Deallocate(env, (unsigned char *)raw);
    free(w.nodes);
    free(w.groups);
    free(w.leaf_class);
    (*env)->DisposeEnvironment(env); /* drops every tag of the walk */
    return prof;
}

hs_profile *hs_retention_build(const hs_retention_source *src, JNIEnv *jni, uint32_t sites, int64_t budget_ms,
                               hs_retention_figures *figures) {
    plan *p = calloc(1, sizeof *p);
    hs_retention_figures *fig = calloc(1, sizeof *fig);
    if (!p || !fig) {
        free(p);
        free(fig);
        return NULL;
    }
    p->src = src;
    p->jni = jni;
    if (sites > HS_RETENTION_MAX_SITES) sites = HS_RETENTION_MAX_SITES;
    if (budget_ms <= 0) budget_ms = HS_RETENTION_DEFAULT_BUDGET_MS;
    /* Local refs: the loaded classes GetLoadedClasses returns. */
    if ((*jni)->PushLocalFrame(jni, 64) != 0) {
        (*jni)->ExceptionClear(jni);
        free(p);
        free(fig);
        hs_error("paths: no room for local references");
        return NULL;
    }
    hs_profile *prof = NULL;
    if (choose_sites(p, sites) != 0)
        hs_error("paths: live tracking is off; no paths found");
    else
        prof = walk_and_build(src, jni, p, budget_ms, fig);
    (*jni)->PopLocalFrame(jni, NULL);
    if (figures) *figures = *fig;
    free(p);
    free(fig);
    return prof;
}
