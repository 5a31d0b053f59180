/* heap_vmstructs.c: heap used after the last GC, read from CollectedHeap::_used_at_last_gc
 * (see heap_vmstructs.h). */
#include "heap/heap_vmstructs.h"

#include <stdio.h>
#include <string.h>

#include "heap/jni_util.h"
#include "base/log.h"
#include "heap/vmstructs.h"

/* Calibration accepts a capacity up to 1/HS_CALIBRATION_SLACK below totalMemory(). */
#define HS_CALIBRATION_SLACK 8

static uint64_t heap_word(const void *heap, long offset) {
    uint64_t word;
    memcpy(&word, (const unsigned char *)heap + offset, sizeof word);
    return word;
}

/* Finds the one candidate c whose preceding word is a capacity in [low, total_memory] and
 * whose own word (a used figure) does not exceed that capacity; -1 if none or several. */
static long unique_candidate(const void *heap, long reserved_offset, uint64_t low,
                             uint64_t total_memory) {
    long found = -1;
    int matches = 0;
    for (long back = 8; back <= 24; back += 8) {
        long c = reserved_offset - back; /* candidate _used_at_last_gc */
        if (c - 8 < 0) break;
        uint64_t capacity = heap_word(heap, c - 8); /* candidate _capacity_at_last_gc */
        if (capacity >= low && capacity <= total_memory && heap_word(heap, c) <= capacity) {
            found = c;
            matches++;
        }
    }
    return matches == 1 ? found : -1;
}

long hs_heap_calibrate_used_at_last_gc(const void *heap, long reserved_offset,
                                       uint64_t total_memory, int *exact) {
    if (exact != NULL) *exact = 0;
    if (heap == NULL || total_memory == 0) return -1;
    long c = unique_candidate(heap, reserved_offset, total_memory, total_memory);
    if (c >= 0) {
        if (exact != NULL) *exact = 1;
        return c;
    }
    /* The heap may have committed more memory between universe_post_init, which recorded the
     * capacity, and VMInit (JDK 25 Shenandoah with default sizing grows by a region). Pointers
     * and counters, the other words there, are nowhere near a heap size. */
    return unique_candidate(heap, reserved_offset,
                            total_memory - total_memory / HS_CALIBRATION_SLACK, total_memory);
}

static int runtime_total_memory(JNIEnv *jni, uint64_t *out) {
    jobject runtime =
        hs_jni_call_static_object(jni, "java/lang/Runtime", "getRuntime", "()Ljava/lang/Runtime;");
    jclass cls = hs_jni_find_class(jni, "java/lang/Runtime");
    jmethodID total = hs_jni_find_method(jni, cls, "totalMemory", "()J");
    if (runtime == NULL || total == NULL) return -1;
    jlong bytes = (*jni)->CallLongMethod(jni, runtime, total);
    if (hs_jni_take_exception(jni) || bytes <= 0) return -1;
    *out = (uint64_t)bytes;
    return 0;
}

/* For a failed calibration: the words the candidates were taken from. */
static void log_words_before(const unsigned char *heap, long reserved_offset) {
    char words[160] = "";
    size_t len = 0;
    for (long c = reserved_offset - 32; c < reserved_offset && len < sizeof words; c += 8) {
        if (c < 0) continue;
        int n = snprintf(words + len, sizeof words - len, " @%ld=%llu", c,
                         (unsigned long long)heap_word(heap, c));
        if (n > 0) len += (size_t)n;
    }
    hs_debug("CollectedHeap words before _reserved:%s", words);
}

int hs_heap_vmstructs_setup(hs_heap_vmstructs *v, const hs_hotspot_tables *tables, JNIEnv *jni,
                            char *why, size_t whylen) {
    if (!tables->structs_ok) {
        snprintf(why, whylen, "%s", tables->why);
        return -1;
    }
    const hs_vmstructs_layout *layout = &tables->structs;
    hs_vmstructs_field heap_field, reserved;
    if (hs_vmstructs_find(layout, "Universe", "_collectedHeap", &heap_field) != 0 ||
        !heap_field.is_static || heap_field.address == NULL) {
        snprintf(why, whylen, "no static Universe::_collectedHeap in VMStructs");
        return -1;
    }
    if (hs_vmstructs_find(layout, "CollectedHeap", "_reserved", &reserved) != 0 ||
        reserved.is_static || reserved.offset < 16 || reserved.offset > 4096) {
        snprintf(why, whylen, "no usable CollectedHeap::_reserved in VMStructs");
        return -1;
    }
    const unsigned char *heap;
    memcpy(&heap, heap_field.address, sizeof heap);
    uint64_t total_memory;
    if (heap == NULL || runtime_total_memory(jni, &total_memory) != 0) {
        snprintf(why, whylen, "no CollectedHeap or Runtime.totalMemory() yet");
        return -1;
    }
    int exact;
    long offset =
        hs_heap_calibrate_used_at_last_gc(heap, (long)reserved.offset, total_memory, &exact);
    if (offset < 0) {
        log_words_before(heap, (long)reserved.offset);
        snprintf(why, whylen,
                 "no single field before CollectedHeap::_reserved (offset %llu) matches "
                 "Runtime.totalMemory() = %llu (late attach or unknown layout)",
                 (unsigned long long)reserved.offset, (unsigned long long)total_memory);
        return -1;
    }
    if (!exact)
        hs_info("CollectedHeap::_capacity_at_last_gc = %llu, below Runtime.totalMemory() = %llu: "
                "the heap grew during startup",
                (unsigned long long)heap_word(heap, offset - 8), (unsigned long long)total_memory);
    v->heap = heap;
    v->used_offset = offset;
    v->startup_used = heap_word(heap, offset);
    return 0;
}

/* Until the first collection the field holds the heap usage at startup, which is no figure.
 * Only a collection writes the field, so a value different from the startup one proves that one
 * has run. (CollectedHeap::_total_collections cannot tell: Shenandoah never increments it.) */
int hs_heap_vmstructs_read(hs_heap_vmstructs *v, uint64_t *used_bytes) {
    /* The GC writes the word at any time; an atomic load gives a whole, recent value. */
    const uint64_t *field = (const uint64_t *)(v->heap + v->used_offset);
    uint64_t used = __atomic_load_n(field, __ATOMIC_RELAXED);
    if (!atomic_load(&v->collected)) {
        if (used == v->startup_used) return 0;
        atomic_store(&v->collected, 1);
    }
    *used_bytes = used;
    return 1;
}
