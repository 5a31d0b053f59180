/* humongous.c: G1 humongous objects tracked by identity hash, judged live by a heap walk
 * at dump time (see humongous.h for why no reference is held). */
#include "live/humongous.h"

#include <stdlib.h>

#include "live/live_table.h"
#include "base/log.h"
#include "sampling/survival.h"

/* The tag the heap walk puts on humongous objects; removed right after. */
#define PRESENT_TAG ((jlong)0x6873687567650001LL)

struct hs_humongous {
    uint64_t threshold;
    hs_live_table *table; /* the "ref" of an entry is the object's identity hash */
    bool judged;          /* a heap walk has succeeded: judged_epoch is its epoch */
    uint32_t judged_epoch; /* the survival outcomes' "previous sweep" */
};

typedef struct {
    jint hash;
    uint64_t size;
} identity;

hs_humongous *hs_humongous_create(uint64_t threshold, uint32_t capacity, uint64_t seed) {
    if (threshold == 0) return NULL;
    hs_humongous *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->threshold = threshold;
    h->table = hs_live_table_create(capacity, seed);
    if (!h->table) {
        free(h);
        return NULL;
    }
    return h;
}

void hs_humongous_destroy(hs_humongous *h) {
    if (!h) return;
    hs_live_table_destroy(h->table);
    free(h);
}

bool hs_humongous_applies(const hs_humongous *h, uint64_t size) {
    return h && size > h->threshold; /* HotSpot: strictly larger than half a region */
}

bool hs_humongous_admit(hs_humongous *h, uint64_t random, uint8_t *level) {
    return hs_live_table_admit(h->table, random, level);
}

bool hs_humongous_track(hs_humongous *h, jvmtiEnv *jvmti, jobject object, uint64_t random,
                        uint32_t bucket, uint32_t epoch, uint64_t weight_fp, uint8_t level) {
    jint hash = 0;
    /* HotSpot never hands out identity hash 0, so a stored hash is never NULL. */
    if ((*jvmti)->GetObjectHashCode(jvmti, object, &hash) != JVMTI_ERROR_NONE || hash == 0)
        return false;
    void *as_ref = (void *)(uintptr_t)(uint32_t)hash;
    /* No allocation time: humongous objects are not split by age (live_age.h). */
    hs_live_birth birth = {.epoch = epoch, .seconds = 0};
    return hs_live_table_insert(h->table, random, as_ref, bucket, 0, birth, weight_fp, level) >= 0;
}

void hs_humongous_maintain(hs_humongous *h) {
    if (hs_live_table_thin_pending(h->table)) hs_live_table_sweep(h->table, NULL, NULL, NULL);
}

uint32_t hs_humongous_tracked(const hs_humongous *h) {
    hs_live_stats stats;
    hs_live_table_stats(h->table, &stats);
    return stats.occupancy;
}

/* IterateThroughHeap callback: tags every object above the threshold. */
static jint JNICALL tag_if_humongous(jlong class_tag, jlong size, jlong *tag_ptr, jint length,
                                     void *user_data) {
    (void)class_tag, (void)length;
    const hs_humongous *h = user_data;
    if ((uint64_t)size > h->threshold && *tag_ptr == 0) *tag_ptr = PRESENT_TAG;
    return 0; /* go on */
}

static int compare_identities(const void *a, const void *b) {
    const identity *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return (x->size > y->size) - (x->size < y->size);
}

/* Identities of the humongous objects in the heap, sorted; the tags are removed again. */
static identity *present_identities(hs_humongous *h, jvmtiEnv *jvmti, JNIEnv *jni, jint *count) {
    jvmtiHeapCallbacks callbacks = {.heap_iteration_callback = tag_if_humongous};
    jlong tag = PRESENT_TAG;
    jobject *objects = NULL;
    *count = 0;
    jvmtiError err = (*jvmti)->IterateThroughHeap(jvmti, 0, NULL, &callbacks, h);
    if (err == JVMTI_ERROR_NONE)
        err = (*jvmti)->GetObjectsWithTags(jvmti, 1, &tag, count, &objects, NULL);
    if (err != JVMTI_ERROR_NONE) {
        hs_warn("heap walk for humongous objects failed (JVMTI error %d): their liveness is "
                "unknown in this profile",
                err);
        return NULL;
    }
    identity *found = malloc(sizeof *found * (size_t)(*count > 0 ? *count : 1));
    int failures = 0;
    for (jint i = 0; i < *count; i++) {
        jint hash = 0; /* stays 0, matching no entry, if the call fails */
        jlong size = 0;
        failures += (*jvmti)->GetObjectHashCode(jvmti, objects[i], &hash) != JVMTI_ERROR_NONE;
        failures += (*jvmti)->GetObjectSize(jvmti, objects[i], &size) != JVMTI_ERROR_NONE;
        if (found) found[i] = (identity){hash, (uint64_t)size};
        failures += (*jvmti)->SetTag(jvmti, objects[i], 0) != JVMTI_ERROR_NONE;
        (*jni)->DeleteLocalRef(jni, objects[i]);
    }
    if (failures) /* such objects count as collected: their sites' estimates run low */
        hs_warn("heap walk: %d JVMTI calls failed on humongous objects", failures);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)objects);
    if (found) qsort(found, (size_t)*count, sizeof *found, compare_identities);
    return found;
}

typedef struct {
    const hs_sample_table *samples;
    const identity *present;
    size_t npresent;
    uint32_t epoch;
    double *live_weight, *live_weight2;
    uint32_t nbuckets;
    struct hs_survival *survival; /* NULL: survival factors off */
    bool judged;                  /* as in hs_humongous, before this walk */
    uint32_t previous;
    int learned, survived; /* outcomes taught, of them survived */
} judge_context;

/* survival=true: what this walk learns of the entry's survival (the sweeper's rule, with
 * the last walk as the previous sweep; before any walk, the entry's birth is). */
static void learn_survival(judge_context *c, const hs_live_entry *entry,
                           const hs_bucket_key *key, bool dead) {
    uint32_t previous = c->judged ? c->previous : entry->epoch;
    int outcome = hs_survival_outcome(entry->epoch, previous, c->epoch, dead);
    if (outcome < 0) return;
    hs_survival_learn(c->survival, key->class_id, key->size, outcome == 1);
    c->learned++;
    c->survived += outcome == 1;
}

/* Keeps an entry whose object is still in the heap (counting it if it is older than the
 * last GC), drops the rest. */
static hs_live_action judge(const hs_live_entry *entry, void *ctx) {
    judge_context *c = ctx;
    hs_bucket_snapshot bucket;
    if (hs_sample_table_get(c->samples, entry->bucket, &bucket) != 0) return HS_LIVE_REMOVE;
    identity key = {(jint)(uint32_t)(uintptr_t)entry->ref, bucket.key.size};
    bool present = bsearch(&key, c->present, c->npresent, sizeof key, compare_identities) != NULL;
    if (c->survival) learn_survival(c, entry, &bucket.key, !present);
    if (!present) return HS_LIVE_REMOVE;
    if (entry->epoch < c->epoch && entry->bucket <= c->nbuckets) {
        double w = (double)entry->weight_fp / (double)HS_WEIGHT_ONE;
        c->live_weight[entry->bucket] += w;
        if (c->live_weight2) c->live_weight2[entry->bucket] += w * w;
    }
    return HS_LIVE_KEEP;
}

int hs_humongous_collect(hs_humongous *h, jvmtiEnv *jvmti, JNIEnv *jni,
                         const hs_sample_table *samples, uint32_t epoch, double *live_weight,
                         double *live_weight2, uint32_t nbuckets, struct hs_survival *survival) {
    if (hs_humongous_tracked(h) == 0) return 0; /* nothing to judge: skip the heap walk */
    jint count = 0;
    identity *present = present_identities(h, jvmti, jni, &count);
    if (!present) return -1;
    judge_context ctx = {.samples = samples, .present = present, .npresent = (size_t)count,
                         .epoch = epoch, .live_weight = live_weight,
                         .live_weight2 = live_weight2, .nbuckets = nbuckets,
                         .survival = survival, .judged = h->judged,
                         .previous = h->judged_epoch};
    uint32_t before = hs_humongous_tracked(h);
    hs_live_table_sweep(h->table, judge, NULL, &ctx);
    h->judged = true;
    h->judged_epoch = epoch;
    hs_debug("humongous: %u tracked, %d in the heap, %u tracked ones still there, %d survival "
             "outcomes learned (%d survived)",
             before, (int)count, hs_humongous_tracked(h), ctx.learned, ctx.survived);
    free(present);
    return ctx.learned;
}
