/* test_humongous.c: G1 humongous objects tracked by identity hash (humongous.c), judged by
 * a heap walk over a fake heap (a JVMTI and JNI of the few functions the walk calls).
 *
 * Checked: the walk counts the weight of tracked objects still in the heap and born before
 * the dump's epoch, and forgets the collected ones; a failed walk adds nothing and learns
 * nothing; and the survival factors (survival.h) learn each object's outcome in the
 * sweeper's sense: still in the heap HS_SURVIVAL_AGE GCs after its birth is survived (once),
 * gone before a walk saw it reach that age is died young, with the last successful walk as
 * the "previous sweep". */
#include <jni.h>
#include <jvmti.h>
#include <stdlib.h>
#include <string.h>

#include "live/humongous.h"
#include "sampling/sample_table.h"
#include "sampling/survival.h"
#include "unit.h"

#define THRESHOLD (UINT64_C(1) << 20) /* 2 MB regions */
#define TEMP_SIZE (UINT64_C(3) << 20)
#define CACHE_SIZE (UINT64_C(5) << 20)
#define TEMP_CLASS 7
#define CACHE_CLASS 9
#define OBJECTS 16

/* ---- A fake heap ------------------------------------------------------------------------ */

typedef struct {
    jint hash;
    jlong size;
    jlong tag;
    bool in_heap;
} fake_object;

static fake_object heap[OBJECTS];
static bool walk_fails;

static jvmtiError JNICALL fake_hash(jvmtiEnv *env, jobject object, jint *hash) {
    (void)env;
    *hash = ((fake_object *)object)->hash;
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL fake_size(jvmtiEnv *env, jobject object, jlong *size) {
    (void)env;
    *size = ((fake_object *)object)->size;
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL fake_set_tag(jvmtiEnv *env, jobject object, jlong tag) {
    (void)env;
    ((fake_object *)object)->tag = tag;
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL fake_iterate(jvmtiEnv *env, jint filter, jclass klass,
                                       const jvmtiHeapCallbacks *callbacks, const void *data) {
    (void)env, (void)filter, (void)klass;
    if (walk_fails) return JVMTI_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < OBJECTS; i++)
        if (heap[i].in_heap)
            callbacks->heap_iteration_callback(0, heap[i].size, &heap[i].tag, -1, (void *)data);
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL fake_with_tags(jvmtiEnv *env, jint ntags, const jlong *tags,
                                         jint *count, jobject **objects, jlong **tag_result) {
    (void)env, (void)tag_result;
    *objects = malloc(sizeof **objects * OBJECTS);
    *count = 0;
    for (int i = 0; i < OBJECTS; i++)
        for (jint t = 0; t < ntags; t++)
            if (heap[i].in_heap && heap[i].tag == tags[t])
                (*objects)[(*count)++] = (jobject)&heap[i];
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL fake_deallocate(jvmtiEnv *env, unsigned char *mem) {
    (void)env;
    free(mem);
    return JVMTI_ERROR_NONE;
}

static void JNICALL fake_delete_local(JNIEnv *env, jobject object) { (void)env, (void)object; }

static struct jvmtiInterface_1_ jvmti_functions;
static struct JNINativeInterface_ jni_functions;
static jvmtiEnv jvmti_env;
static JNIEnv jni_env;

/* A fresh heap of OBJECTS objects, none in it yet; the fake environments. */
static void fake_setup(void) {
    memset(heap, 0, sizeof heap);
    walk_fails = false;
    jvmti_functions.GetObjectHashCode = fake_hash;
    jvmti_functions.GetObjectSize = fake_size;
    jvmti_functions.SetTag = fake_set_tag;
    jvmti_functions.IterateThroughHeap = fake_iterate;
    jvmti_functions.GetObjectsWithTags = fake_with_tags;
    jvmti_functions.Deallocate = fake_deallocate;
    jni_functions.DeleteLocalRef = fake_delete_local;
    jvmti_env = &jvmti_functions;
    jni_env = &jni_functions;
}

/* Allocates heap[i] (hash 1000 + i) and tracks it in bucket at GC epoch `epoch`. */
static void allocate(hs_humongous *h, int i, uint64_t size, uint32_t bucket, uint32_t epoch) {
    heap[i] = (fake_object){.hash = 1000 + i, .size = (jlong)size, .in_heap = true};
    CU_ASSERT(hs_humongous_applies(h, size));
    uint8_t level = 0;
    uint64_t random = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
    CU_ASSERT_FATAL(hs_humongous_admit(h, random, &level));
    CU_ASSERT(hs_humongous_track(h, &jvmti_env, (jobject)&heap[i], random, bucket, epoch,
                                 HS_WEIGHT_ONE, level));
}

typedef struct {
    hs_sample_table *samples;
    uint32_t temp, cache; /* buckets */
    hs_humongous *h;
    hs_survival *survival;
    double live[8], live2[8];
} fixture;

static void fixture_create(fixture *f, bool survival) {
    memset(f, 0, sizeof *f);
    fake_setup();
    f->samples = hs_sample_table_create(64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->samples);
    f->temp = hs_sample_table_record(f->samples,
                                     (hs_bucket_key){.stack_id = 1, .class_id = TEMP_CLASS,
                                                     .size = TEMP_SIZE},
                                     HS_WEIGHT_ONE);
    f->cache = hs_sample_table_record(f->samples,
                                      (hs_bucket_key){.stack_id = 2, .class_id = CACHE_CLASS,
                                                      .size = CACHE_SIZE},
                                      HS_WEIGHT_ONE);
    CU_ASSERT_FATAL(f->temp < 8 && f->cache < 8 && f->temp != f->cache);
    f->h = hs_humongous_create(THRESHOLD, 256, 42);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->h);
    f->survival = survival ? hs_survival_create() : NULL;
}

static void fixture_destroy(fixture *f) {
    hs_humongous_destroy(f->h);
    hs_survival_destroy(f->survival);
    hs_sample_table_destroy(f->samples);
}

/* A dump at GC epoch `epoch`: the live weights start from 0. */
static int dump(fixture *f, uint32_t epoch) {
    memset(f->live, 0, sizeof f->live);
    memset(f->live2, 0, sizeof f->live2);
    return hs_humongous_collect(f->h, &jvmti_env, &jni_env, f->samples, epoch, f->live,
                                f->live2, 7, f->survival);
}

static void learned(const fixture *f, uint64_t outcomes, uint64_t survived) {
    hs_survival_stats st;
    hs_survival_stats_read(f->survival, &st);
    CU_ASSERT_EQUAL(st.outcomes, outcomes);
    CU_ASSERT_EQUAL(st.survived, survived);
}

/* ---- Tests ------------------------------------------------------------------------------- */

static void test_walk_counts_what_is_in_the_heap(void) {
    fixture f;
    fixture_create(&f, false);
    CU_ASSERT_EQUAL(dump(&f, 5), 0); /* nothing tracked: no walk */
    for (int i = 0; i < 3; i++) allocate(f.h, i, CACHE_SIZE, f.cache, 5);
    allocate(f.h, 3, TEMP_SIZE, f.temp, 6);
    heap[1].in_heap = false; /* collected */
    CU_ASSERT_EQUAL(dump(&f, 6), 0);
    CU_ASSERT_DOUBLE_EQUAL(f.live[f.cache], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(f.live2[f.cache], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(f.live[f.temp], 0.0, 1e-9); /* born after the last GC */
    CU_ASSERT_EQUAL(hs_humongous_tracked(f.h), 3);     /* the collected one forgotten */
    for (int i = 0; i < OBJECTS; i++) CU_ASSERT_EQUAL(heap[i].tag, 0); /* tags removed */
    walk_fails = true;
    CU_ASSERT_EQUAL(dump(&f, 7), -1);
    CU_ASSERT_DOUBLE_EQUAL(f.live[f.cache], 0.0, 1e-9);
    CU_ASSERT_EQUAL(hs_humongous_tracked(f.h), 3);
    fixture_destroy(&f);
}

/* A temporary buffer (gone by the next GC) and a cache (kept), both humongous: the walks
 * of the dumps teach the factors what the sweeper would have, and the cache's factor ends
 * above the buffer's. */
static void test_walk_teaches_survival(void) {
    fixture f;
    fixture_create(&f, true);
    for (int i = 0; i < 4; i++) allocate(f.h, i, TEMP_SIZE, f.temp, 10);
    for (int i = 4; i < 8; i++) allocate(f.h, i, CACHE_SIZE, f.cache, 10);
    CU_ASSERT_EQUAL(dump(&f, 10), 0); /* all there, none a GC old: nothing known yet */
    learned(&f, 0, 0);
    for (int i = 0; i < 4; i++) heap[i].in_heap = false; /* GC 11 frees the buffers */
    CU_ASSERT_EQUAL(dump(&f, 11), 4);                    /* died young; caches 1 GC old */
    learned(&f, 4, 0);
    CU_ASSERT_EQUAL(dump(&f, 13), 4); /* the caches have lived through GCs 11 to 13 */
    learned(&f, 8, 4);
    CU_ASSERT_EQUAL(dump(&f, 14), 0); /* a survivor is counted once */
    heap[4].in_heap = false;
    CU_ASSERT_EQUAL(dump(&f, 15), 0); /* nor is its death later */
    learned(&f, 8, 4);
    CU_ASSERT_DOUBLE_EQUAL(f.live[f.cache], 3.0, 1e-9);

    /* Born between walks, judged at the first walk at or past its age. */
    allocate(f.h, 8, CACHE_SIZE, f.cache, 16);
    allocate(f.h, 9, TEMP_SIZE, f.temp, 16);
    heap[9].in_heap = false;
    CU_ASSERT_EQUAL(dump(&f, 20), 2);
    learned(&f, 10, 5);

    /* A failed walk learns nothing and is not the previous one: the next walk judges an
     * object that reached its age meanwhile. */
    allocate(f.h, 10, CACHE_SIZE, f.cache, 21);
    walk_fails = true;
    CU_ASSERT_EQUAL(dump(&f, 23), -1);
    learned(&f, 10, 5);
    walk_fails = false;
    CU_ASSERT_EQUAL(dump(&f, 24), 1);
    learned(&f, 11, 6);

    hs_survival_publish(f.survival);
    double temp = hs_survival_factor(f.survival, TEMP_CLASS, TEMP_SIZE);
    double cache = hs_survival_factor(f.survival, CACHE_CLASS, CACHE_SIZE);
    CU_ASSERT(temp >= 1.0 && temp < cache && cache <= HS_SURVIVAL_MAX);
    fixture_destroy(&f);
}

/* The first walk of a run has no previous one: an object's birth stands for it, so a walk
 * long after the birth still judges it (epochs near the wrap included). */
static void test_first_walk(void) {
    fixture f;
    fixture_create(&f, true);
    uint32_t born = UINT32_MAX - 1;
    allocate(f.h, 0, CACHE_SIZE, f.cache, born);
    allocate(f.h, 1, TEMP_SIZE, f.temp, born);
    heap[1].in_heap = false;
    CU_ASSERT_EQUAL(dump(&f, born + 5), 2); /* wraps to 3 */
    learned(&f, 2, 1);
    fixture_destroy(&f);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"the walk counts what is in the heap", test_walk_counts_what_is_in_the_heap},
        {"the walk teaches the survival factors", test_walk_teaches_survival},
        {"the first walk judges from the birth", test_first_walk},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("humongous", tests);
}
