/* retention.c: reference chains from GC roots to the biggest sites' tracked objects,
 * written as the `-paths` pprof profile (see retention.h). */
#include "retention.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvm_names.h"
#include "live_tracker.h"
#include "log.h"
#include "profile.h"
#include "profile_output.h"
#include "sample_table.h"
#include "suspects.h"
#include "symbols.h"
#include "wall_clock.h"

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
    hs_agent *agent;
    JNIEnv *jni;
    jvmtiEnv *env; /* the walk's own */
    site sites[HS_RETENTION_MAX_SITES];
    uint32_t nsites;
    uint32_t target_site[MAX_TARGETS]; /* target j (node first_target + j) belongs to */
    uint32_t ntargets;
    uint32_t first_target;
    int tag_failed;
    uint64_t heap_used;
} plan;

/* The n buckets with the most in-use bytes (largest first). */
static int choose_sites(plan *p, uint32_t n) {
    hs_live_view view;
    int rc = hs_live_collect(p->agent, p->jni, hs_sample_table_count(p->agent->samples), &view);
    for (uint32_t b = 1; rc == 0 && b <= view.nbuckets; b++) {
        double size, scale;
        if (!(view.live_weight[b] > 0) || !hs_suspect_bucket_info(b, &size, &scale, p->agent))
            continue;
        site s = {.bucket = b, .objects = view.live_weight[b] * scale};
        s.bytes = s.objects * size;
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

typedef struct {
    hs_retention_node *nodes;
    uint32_t nnodes, cap;
    uint32_t nclasses;     /* nodes 0 .. nclasses-1: the loaded classes, pre-tagged */
    uint8_t *leaf_class;   /* per class: primitive arrays, which refer to nothing */
    uint32_t first_target; /* then the targets, pre-tagged */
    uint32_t ntargets, reached;
    uint64_t references;   /* callbacks */
    uint64_t leaf_references; /* references to primitive arrays (not tagged) */
    int64_t deadline;
    int timed_out, budget_hit, failed;
} walk;

static uint32_t node_of(jlong tag) { return tag > 0 ? (uint32_t)(tag - 1) : HS_RETENTION_NO_NODE; }

static uint32_t new_node(walk *w) {
    if (w->nnodes >= HS_RETENTION_NODE_BUDGET) {
        w->budget_hit = 1;
        return HS_RETENTION_NO_NODE;
    }
    if (w->nnodes == w->cap) {
        uint32_t cap = w->cap * 2 < HS_RETENTION_NODE_BUDGET ? w->cap * 2 : HS_RETENTION_NODE_BUDGET;
        hs_retention_node *grown = realloc(w->nodes, (size_t)cap * sizeof *grown);
        if (!grown) {
            w->failed = 1;
            return HS_RETENTION_NO_NODE;
        }
        w->nodes = grown;
        w->cap = cap;
    }
    return w->nnodes++;
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

/* Called by FollowReferences for every reference, roots first; no JNI or JVMTI here. */
static jint JNICALL on_reference(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
                                 jlong class_tag, jlong referrer_class_tag, jlong size,
                                 jlong *tag_ptr, jlong *referrer_tag_ptr, jint length,
                                 void *user_data) {
    (void)size, (void)length;
    walk *w = user_data;
    if ((++w->references & 4095) == 0 && hs_monotonic_nanos() > w->deadline) {
        w->timed_out = 1;
        return JVMTI_VISIT_ABORT;
    }
    uint32_t parent = HS_RETENTION_NO_NODE;
    if (referrer_tag_ptr) { /* not a root: the referrer must be one of ours */
        parent = node_of(*referrer_tag_ptr);
        if (parent == HS_RETENTION_NO_NODE) return 0; /* past the budget: not followed */
    }
    uint32_t node = node_of(*tag_ptr);
    if (node != HS_RETENTION_NO_NODE) { /* a class or a target, or seen before */
        if (node < w->nnodes && w->nodes[node].kind == 0) {
            set_edge(w, node, kind, info, class_tag, referrer_class_tag, parent);
            if (node >= w->first_target && node < w->first_target + w->ntargets &&
                ++w->reached == w->ntargets)
                return JVMTI_VISIT_ABORT; /* every target has its path */
        }
        return JVMTI_VISIT_OBJECTS;
    }
    uint32_t cls = node_of(class_tag);
    if (cls < w->nclasses && w->leaf_class[cls]) { /* a primitive array: a dead end */
        w->leaf_references++;
        return 0;
    }
    node = new_node(w);
    if (node == HS_RETENTION_NO_NODE) return w->failed ? JVMTI_VISIT_ABORT : 0;
    set_edge(w, node, kind, info, class_tag, referrer_class_tag, parent);
    *tag_ptr = (jlong)node + 1;
    return JVMTI_VISIT_OBJECTS;
}

/* A jvmtiEnv for the walk alone: disposing of it drops every tag the walk set. */
static jvmtiEnv *walk_env(hs_agent *agent) {
    jvmtiEnv *env = NULL;
    if ((*agent->vm)->GetEnv(agent->vm, (void **)&env, JVMTI_VERSION_1_2) != JNI_OK || !env)
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

/* Tags the targets, then follows references from the roots. 0 or -1. */
static int run_walk(jvmtiEnv *env, plan *p, walk *w, int64_t budget_ms) {
    p->env = env;
    p->first_target = w->nclasses;
    if (hs_live_each_object(p->agent, tag_target, p) != 0 || p->tag_failed) return -1;
    w->first_target = p->first_target;
    w->ntargets = p->ntargets;
    w->cap = w->nclasses + w->ntargets + 4096;
    w->nodes = calloc(w->cap, sizeof *w->nodes);
    if (!w->nodes) return -1;
    w->nnodes = w->nclasses + w->ntargets;
    for (uint32_t i = 0; i < w->nnodes; i++) w->nodes[i].parent = HS_RETENTION_NO_NODE;
    if (w->ntargets == 0) return 0; /* nothing to look for: no walk */
    jvmtiHeapCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.heap_reference_callback = on_reference;
    w->deadline = hs_monotonic_nanos() + budget_ms * 1000000;
    jvmtiError err = (*env)->FollowReferences(env, 0, NULL, NULL, &callbacks, w);
    if (err != JVMTI_ERROR_NONE) hs_warn("paths: FollowReferences failed (JVMTI error %d)", err);
    return err == JVMTI_ERROR_NONE && !w->failed ? 0 : -1;
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
                        plan *p) {
    for (uint32_t j = 0; j < p->ntargets; j++)
        p->sites[p->target_site[j]].reached += w->nodes[w->first_target + j].kind != 0;
    for (uint32_t j = 0; j < p->ntargets; j++) {
        const site *s = &p->sites[p->target_site[j]];
        hs_bucket_snapshot b;
        const char *leaf = hs_sample_table_get(p->agent->samples, s->bucket, &b) == 0
                               ? hs_symbols_class_name(p->agent->symbols, b.key.class_id) : NULL;
        if (w->nodes[w->first_target + j].kind != 0)
            add_target(f, env, jni, classes, w, s, p->target_site[j] + 1, leaf ? leaf : "[unknown]",
                       w->first_target + j);
    }
}

static void add_comments(hs_profile *prof, const walk *w, const plan *p, int64_t nanos) {
    double seconds = (double)nanos / 1e9;
    hs_profile_add_comment(prof, "heapsampler %s: retention paths (root first) to %u tracked "
                                 "objects of the %u sites with the most in-use bytes",
                           HEAPSAMPLER_VERSION, w->ntargets, p->nsites);
    hs_profile_add_comment(prof,
                           "walk: %.1f ms (FollowReferences stops the world), %u objects visited and "
                           "followed, %llu references to primitive arrays (not followed), %llu "
                           "references in all; %u of %u objects reached%s%s; heap used %llu bytes: "
                           "%.2f s per GB",
                           seconds * 1e3, w->nnodes - w->nclasses - w->ntargets,
                           (unsigned long long)w->leaf_references,
                           (unsigned long long)w->references, w->reached, w->ntargets,
                           w->timed_out ? "; stopped at the time budget" : "",
                           w->budget_hit ? "; node budget reached: objects past it not followed" : "",
                           (unsigned long long)p->heap_used,
                           p->heap_used ? seconds / ((double)p->heap_used / 1e9) : 0.0);
    hs_profile_add_comment(prof, "values: each site's in-use estimate, shared equally among its "
                                 "objects whose path was found");
}

/* One comment per site, after add_samples counted what was reached; the samples' "site"
 * label is the site's index + 1. */
static void add_site_comments(hs_profile *prof, const plan *p) {
    for (uint32_t i = 0; i < p->nsites; i++) {
        char key[512];
        hs_suspect_site_key(p->agent, p->sites[i].bucket, key, sizeof key);
        hs_profile_add_comment(prof, "site %u: %s, %.0f bytes in use; %u of its %u tracked "
                                     "objects sought were reached", i + 1, key, p->sites[i].bytes,
                               p->sites[i].reached, p->sites[i].ntargets);
    }
}

static hs_profile *build_profile(jvmtiEnv *env, JNIEnv *jni, jclass *classes, const walk *w,
                                 plan *p, int64_t nanos) {
    hs_profile *prof = hs_profile_new();
    frames f = {.profile = prof};
    if (!prof || hs_profile_add_sample_type(prof, "inuse_objects", "count") < 0 ||
        hs_profile_add_sample_type(prof, "inuse_space", "bytes") < 0 ||
        hs_profile_set_default_sample_type(prof, "inuse_space") != 0) {
        hs_profile_free(prof);
        return NULL;
    }
    add_comments(prof, w, p, nanos);
    add_samples(&f, env, jni, classes, w, p);
    add_site_comments(prof, p);
    for (uint32_t i = 0; i < f.nnames; i++) free(f.names[i]);
    free(f.names);
    if (!prof->failed) return prof;
    hs_profile_free(prof);
    return NULL;
}

/* --- the whole -------------------------------------------------------------------------------- */

static hs_profile *walk_and_build(hs_agent *agent, JNIEnv *jni, plan *p, int64_t budget_ms) {
    jvmtiEnv *env = walk_env(agent);
    if (!env) {
        hs_error("paths: no JVMTI environment with the tagging capability");
        return NULL;
    }
    jclass *raw = NULL, *classes = NULL;
    walk w = {0};
    int64_t start = hs_monotonic_nanos();
    int rc = tag_classes(env, jni, &w) == 0 ? run_walk(env, p, &w, budget_ms) : -1;
    int64_t nanos = hs_monotonic_nanos() - start;
    if (rc == 0) classes = classes_by_node(env, jni, (jint)w.nclasses, &raw);
    hs_profile *prof = classes ? build_profile(env, jni, classes, &w, p, nanos) : NULL;
    if (prof)
        hs_info("paths: walk %.1f ms, %u objects visited, %u of %u objects reached",
                (double)nanos / 1e6, w.nnodes - w.nclasses - w.ntargets, w.reached, w.ntargets);
    else
        hs_error("paths: the retention walk failed or ran out of memory");
    free(classes);
    if (raw) (*env)->Deallocate(env, (unsigned char *)raw);
    free(w.nodes);
    free(w.leaf_class);
    (*env)->DisposeEnvironment(env); /* drops every tag of the walk */
    return prof;
}

int hs_retention_write(hs_agent *agent, JNIEnv *jni, const char *path, uint32_t sites,
                       int64_t time_budget_ms) {
    hs_profile *prof = hs_retention_build(agent, jni, sites, time_budget_ms);
    int rc = prof ? hs_write_profile_file(prof, path) : -1;
    if (!prof) hs_error("cannot write '%s': no retention paths", path);
    hs_profile_free(prof);
    return rc;
}

hs_profile *hs_retention_build(hs_agent *agent, JNIEnv *jni, uint32_t sites,
                               int64_t time_budget_ms) {
    plan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->agent = agent;
    p->jni = jni;
    if (sites > HS_RETENTION_MAX_SITES) sites = HS_RETENTION_MAX_SITES;
    /* Local refs: the loaded classes GetLoadedClasses returns. */
    if ((*jni)->PushLocalFrame(jni, 64) != 0) {
        (*jni)->ExceptionClear(jni);
        free(p);
        hs_error("paths: no room for local references");
        return NULL;
    }
    hs_profile *prof = NULL;
    if (choose_sites(p, sites) != 0)
        hs_error("paths: live tracking is off; no paths found");
    else
        prof = walk_and_build(agent, jni, p, time_budget_ms);
    (*jni)->PopLocalFrame(jni, NULL);
    free(p);
    return prof;
}
