/* test_heap_usage.c: the pure parts of heap_usage: collector classification from MXBean
 * names and from -XX flags, which collectors keep _used_at_last_gc current, the offset
 * calibration on fake CollectedHeap memory images, and the parsing of the G1HeapRegionSize
 * flag. (The JVM-facing parts are exercised by the jtreg suite.) */
#include <stdint.h>
#include <string.h>

#include "heap/heap_usage.h"
#include "unit.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Bean names as printed by ManagementFactory.getGarbageCollectorMXBeans() on JDK 17.0.15 and
 * 25.0.3, in the order those JVMs list them. */
static void test_classify_real_bean_names(void) {
    const char *g1_17[] = {"G1 Young Generation", "G1 Old Generation"};
    const char *g1_25[] = {"G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation"};
    const char *parallel[] = {"PS MarkSweep", "PS Scavenge"};
    const char *serial[] = {"Copy", "MarkSweepCompact"};
    const char *z17[] = {"ZGC Cycles", "ZGC Pauses"};
    const char *z25[] = {"ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles",
                         "ZGC Major Pauses"};
    const char *shenandoah[] = {"Shenandoah Pauses", "Shenandoah Cycles"};
    const char *epsilon[] = {"Epsilon Heap"};
    const char *z_old[] = {"ZGC"}; /* JDK 15-16 */
    CU_ASSERT_EQUAL(hs_gc_classify(g1_17, COUNT(g1_17)), HS_GC_G1);
    CU_ASSERT_EQUAL(hs_gc_classify(g1_25, COUNT(g1_25)), HS_GC_G1);
    CU_ASSERT_EQUAL(hs_gc_classify(parallel, COUNT(parallel)), HS_GC_PARALLEL);
    CU_ASSERT_EQUAL(hs_gc_classify(serial, COUNT(serial)), HS_GC_SERIAL);
    CU_ASSERT_EQUAL(hs_gc_classify(z17, COUNT(z17)), HS_GC_Z);
    CU_ASSERT_EQUAL(hs_gc_classify(z25, COUNT(z25)), HS_GC_Z_GENERATIONAL);
    CU_ASSERT_EQUAL(hs_gc_classify(shenandoah, COUNT(shenandoah)), HS_GC_SHENANDOAH);
    CU_ASSERT_EQUAL(hs_gc_classify(epsilon, COUNT(epsilon)), HS_GC_EPSILON);
    CU_ASSERT_EQUAL(hs_gc_classify(z_old, COUNT(z_old)), HS_GC_Z);
}

static void test_classify_unknown(void) {
    const char *cms[] = {"ParNew", "ConcurrentMarkSweep"};
    const char *almost[] = {"G1 Young Generation ", "zgc cycles", "PS", ""};
    const char *with_null[] = {NULL, "Copy"};
    CU_ASSERT_EQUAL(hs_gc_classify(NULL, 0), HS_GC_UNKNOWN);
    CU_ASSERT_EQUAL(hs_gc_classify(cms, COUNT(cms)), HS_GC_UNKNOWN);
    CU_ASSERT_EQUAL(hs_gc_classify(almost, COUNT(almost)), HS_GC_UNKNOWN);
    CU_ASSERT_EQUAL(hs_gc_classify(with_null, COUNT(with_null)), HS_GC_SERIAL);
    /* Only the first count names are looked at. */
    CU_ASSERT_EQUAL(hs_gc_classify(with_null, 1), HS_GC_UNKNOWN);
}

/* The flags with exactly one selector set; Shenandoah and ZGenerational as given. */
static hs_gc_flags only(int which, int z_generational, int version) {
    hs_gc_flags f = {0, 0, 0, 0, 0, 0, z_generational, version};
    int *selectors[] = {&f.serial, &f.parallel, &f.g1, &f.z, &f.shenandoah, &f.epsilon};
    *selectors[which] = 1;
    return f;
}

enum { SERIAL, PARALLEL, G1, Z, SHENANDOAH, EPSILON };

/* The flags as JDK 17.0.15 and 25.0.3 report them (ZGenerational absent on both) give the
 * kinds their bean names give in test_classify_real_bean_names. */
static void test_classify_flags_real(void) {
    static const struct {
        int which;
        hs_gc_kind kind17, kind25;
    } cases[] = {
        {SERIAL, HS_GC_SERIAL, HS_GC_SERIAL},
        {PARALLEL, HS_GC_PARALLEL, HS_GC_PARALLEL},
        {G1, HS_GC_G1, HS_GC_G1},
        {Z, HS_GC_Z, HS_GC_Z_GENERATIONAL},
        {SHENANDOAH, HS_GC_SHENANDOAH, HS_GC_SHENANDOAH},
        {EPSILON, HS_GC_EPSILON, HS_GC_EPSILON},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        hs_gc_flags f17 = only(cases[i].which, -1, 17), f25 = only(cases[i].which, -1, 25);
        CU_ASSERT_EQUAL(hs_gc_classify_flags(&f17), cases[i].kind17);
        CU_ASSERT_EQUAL(hs_gc_classify_flags(&f25), cases[i].kind25);
    }
}

/* JDK 21-23 have both Z modes, told by ZGenerational; without it, only the version tells. */
static void test_classify_flags_z_modes(void) {
    hs_gc_flags f = only(Z, 0, 21);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_Z);
    f = only(Z, 1, 23);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_Z_GENERATIONAL);
    f = only(Z, -1, 24);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_Z_GENERATIONAL);
    f = only(Z, -1, 20);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_Z);
    /* A flag that should exist but does not, and an unknown version: ask the beans. */
    f = only(Z, -1, 22);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_UNKNOWN);
    f = only(Z, -1, 0);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_UNKNOWN);
    /* ZGenerational alone selects nothing. */
    f = only(G1, 1, 21);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&f), HS_GC_G1);
}

static void test_classify_flags_not_one(void) {
    hs_gc_flags none = {0, 0, 0, 0, 0, 0, -1, 17};
    hs_gc_flags absent = {-1, -1, -1, -1, -1, -1, -1, 17};
    hs_gc_flags two = only(G1, -1, 17);
    two.parallel = 1;
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&none), HS_GC_UNKNOWN);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&absent), HS_GC_UNKNOWN);
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&two), HS_GC_UNKNOWN);
    /* A JVM without Shenandoah (absent flag) still classifies. */
    hs_gc_flags no_shenandoah = only(PARALLEL, -1, 17);
    no_shenandoah.shenandoah = -1;
    CU_ASSERT_EQUAL(hs_gc_classify_flags(&no_shenandoah), HS_GC_PARALLEL);
}

static void test_kind_names(void) {
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_G1), "G1");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_PARALLEL), "Parallel");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_SERIAL), "Serial");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_Z), "Z");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_Z_GENERATIONAL), "Z (generational)");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_SHENANDOAH), "Shenandoah");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_EPSILON), "Epsilon");
    CU_ASSERT_STRING_EQUAL(hs_gc_kind_name(HS_GC_UNKNOWN), "unknown");
}

/* auto uses vmstructs only where every collection refreshes the field. */
static void test_which_collectors_keep_the_field_current(void) {
    CU_ASSERT_TRUE(hs_gc_updates_used_at_last_gc(HS_GC_G1));
    CU_ASSERT_TRUE(hs_gc_updates_used_at_last_gc(HS_GC_SHENANDOAH));
    CU_ASSERT_TRUE(hs_gc_updates_used_at_last_gc(HS_GC_Z));
    CU_ASSERT_FALSE(hs_gc_updates_used_at_last_gc(HS_GC_PARALLEL));
    CU_ASSERT_FALSE(hs_gc_updates_used_at_last_gc(HS_GC_SERIAL));
    CU_ASSERT_FALSE(hs_gc_updates_used_at_last_gc(HS_GC_Z_GENERATIONAL));
    CU_ASSERT_FALSE(hs_gc_updates_used_at_last_gc(HS_GC_EPSILON));
    CU_ASSERT_FALSE(hs_gc_updates_used_at_last_gc(HS_GC_UNKNOWN));
}

/* Calibrates and checks that a match was exact. */
static long calibrate(const void *heap, long reserved_offset, uint64_t total_memory) {
    int exact = -1;
    long c = hs_heap_calibrate_used_at_last_gc(heap, reserved_offset, total_memory, &exact);
    CU_ASSERT_EQUAL(exact, c >= 0);
    return c;
}

/* A fake CollectedHeap: 16 words, word 0 a vtable-like pointer, the rest junk unless set. */
static void fake_heap(uint64_t heap[16]) {
    for (int i = 0; i < 16; i++) heap[i] = 0x5151515151515151ull + (uint64_t)i;
    heap[0] = 0x7f0000401000ull;
}

static void set_word(uint64_t heap[16], long byte_offset, uint64_t value) {
    memcpy((unsigned char *)heap + byte_offset, &value, sizeof value);
}

/* A fake heap holding a capacity at capacity_offset and, in the next word, a used figure:
 * the (_capacity_at_last_gc, _used_at_last_gc) pair the calibration looks for. */
static void fake_heap_with_pair(uint64_t heap[16], long capacity_offset, uint64_t capacity,
                                uint64_t used) {
    fake_heap(heap);
    set_word(heap, capacity_offset, capacity);
    set_word(heap, capacity_offset + 8, used);
}

static void test_calibrate_jdk17_layout(void) {
    /* JDK 17: _capacity_at_last_gc @16, _used_at_last_gc @24, _reserved @32. */
    uint64_t heap[16];
    uint64_t total = 264241152; /* 252 MiB */
    fake_heap_with_pair(heap, 16, total, 3145728);
    CU_ASSERT_EQUAL(calibrate(heap, 32, total), 24);
}

static void test_calibrate_jdk25_layout(void) {
    /* JDK 25: _capacity_at_last_gc @24, _used_at_last_gc @32, _reserved @48. */
    uint64_t heap[16];
    uint64_t total = 8589934592ull; /* 8 GiB */
    fake_heap_with_pair(heap, 24, total, total); /* used == capacity is accepted */
    CU_ASSERT_EQUAL(calibrate(heap, 48, total), 32);
}

static void test_calibrate_farthest_candidate(void) {
    uint64_t heap[16];
    fake_heap_with_pair(heap, 40, 1000, 0);
    CU_ASSERT_EQUAL(calibrate(heap, 72, 1000), 48);
    /* One word further back is outside the candidates. */
    fake_heap_with_pair(heap, 32, 1000, 0);
    CU_ASSERT_EQUAL(calibrate(heap, 72, 1000), -1);
}

static void test_calibrate_rejects(void) {
    uint64_t heap[16];
    uint64_t total = 1u << 30;

    /* Nothing equals totalMemory (late attach: the heap has been resized since). */
    fake_heap(heap);
    CU_ASSERT_EQUAL(calibrate(heap, 48, total), -1);

    /* The capacity matches but the next word exceeds it: not a used figure. */
    fake_heap_with_pair(heap, 24, total, total + 1);
    CU_ASSERT_EQUAL(calibrate(heap, 48, total), -1);

    /* Two candidates match: ambiguous, never guess. */
    fake_heap(heap);
    set_word(heap, 16, total);
    set_word(heap, 24, total);
    set_word(heap, 32, 0);
    CU_ASSERT_EQUAL(calibrate(heap, 48, total), -1);

    /* No totalMemory, no heap. */
    fake_heap_with_pair(heap, 16, total, 0);
    CU_ASSERT_EQUAL(calibrate(heap, 32, 0), -1);
    CU_ASSERT_EQUAL(calibrate(NULL, 32, total), -1);
}

static void test_calibrate_heap_grew_before_vminit(void) {
    /* JDK 25 Shenandoah, default sizing: capacity recorded 380 MiB, totalMemory() 382 MiB. */
    uint64_t heap[16];
    uint64_t total = 400556032, recorded = 398458880;
    int exact = -1;
    fake_heap(heap);
    set_word(heap, 16, 140577770104352ull); /* a pointer */
    set_word(heap, 24, recorded);
    set_word(heap, 32, 2097152);
    set_word(heap, 40, 0);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, &exact), 32);
    CU_ASSERT_EQUAL(exact, 0);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, NULL), 32);

    /* An exact match wins over a near one. */
    set_word(heap, 16, total);
    set_word(heap, 24, total - 4096);
    set_word(heap, 32, 0);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, &exact), 24);
    CU_ASSERT_EQUAL(exact, 1);

    /* Two near matches: ambiguous. */
    set_word(heap, 16, total - 4096);
    set_word(heap, 24, total - 8192);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, &exact), -1);

    /* More than an eighth below, or above (the heap does not shrink before VMInit): no. */
    fake_heap_with_pair(heap, 24, total - total / 8 - 1, 0);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, &exact), -1);
    set_word(heap, 24, total - total / 8);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, &exact), 32);
    set_word(heap, 24, total + 4096);
    CU_ASSERT_EQUAL(hs_heap_calibrate_used_at_last_gc(heap, 48, total, &exact), -1);
}

static void test_calibrate_small_reserved_offset(void) {
    /* With _reserved @16 only c = 8 is a candidate, and c - 8 = 0 is the first word. */
    uint64_t heap[16];
    fake_heap_with_pair(heap, 0, 4096, 100);
    CU_ASSERT_EQUAL(calibrate(heap, 16, 4096), 8);
    /* With _reserved @8 there is no room for a candidate at all. */
    CU_ASSERT_EQUAL(calibrate(heap, 8, 4096), -1);
}

static void test_no_heap_usage_object(void) {
    hs_heap_reading r = {1, 42, NULL};
    hs_heap_usage_read(NULL, NULL, &r);
    CU_ASSERT_EQUAL(r.valid, 0);
    CU_ASSERT_EQUAL(r.used_bytes, 0);
    CU_ASSERT_STRING_EQUAL(r.source, "none");
    CU_ASSERT_STRING_EQUAL(hs_heap_usage_source(NULL), "none");
    CU_ASSERT_STRING_EQUAL(hs_heap_usage_gc_name(NULL), "unknown");
    CU_ASSERT_EQUAL(hs_heap_usage_vmstructs_offset(NULL), -1);
    CU_ASSERT_EQUAL(hs_heap_usage_humongous_threshold(NULL), 0);
    hs_heap_usage_destroy(NULL, NULL);
}

/* Parses text, expecting success with the given value. */
static void assert_region_size(const char *text, uint64_t expected) {
    uint64_t value = 12345;
    CU_ASSERT_EQUAL(hs_g1_region_size_parse(text, &value), 0);
    CU_ASSERT_EQUAL(value, expected);
}

/* Parses text, expecting a failure that leaves the output alone. */
static void assert_no_region_size(const char *text) {
    uint64_t value = 12345;
    CU_ASSERT_EQUAL(hs_g1_region_size_parse(text, &value), -1);
    CU_ASSERT_EQUAL(value, 12345);
}

static void test_region_size_parse_valid(void) {
    assert_region_size("1048576", 1048576);     /* 1m, the smallest G1 region */
    assert_region_size("4194304", 4194304);     /* 4m */
    assert_region_size("33554432", 33554432);   /* 32m */
    assert_region_size("536870912", 536870912); /* 512m, the JDK 18+ maximum */
    assert_region_size("1", 1);
    assert_region_size("01048576", 1048576);
    assert_region_size("9223372036854775808", 9223372036854775808ull); /* 2^63 */
}

static void test_region_size_parse_junk(void) {
    assert_no_region_size(NULL);
    assert_no_region_size("");
    assert_no_region_size("0");
    assert_no_region_size("4m");
    assert_no_region_size("4M");
    assert_no_region_size(" 4194304");
    assert_no_region_size("4194304 ");
    assert_no_region_size("4194304\n");
    assert_no_region_size("+4194304");
    assert_no_region_size("-4194304");
    assert_no_region_size("0x400000");
    assert_no_region_size("4194304.0");
    assert_no_region_size("true");
    /* Not powers of two: no G1 region has such a size. */
    assert_no_region_size("3");
    assert_no_region_size("4194305");
    assert_no_region_size("3145728");
}

static void test_region_size_parse_overflow(void) {
    assert_no_region_size("18446744073709551615"); /* UINT64_MAX: fits, not a power of two */
    assert_no_region_size("18446744073709551616"); /* UINT64_MAX + 1 */
    assert_no_region_size("18446744073709551617");
    assert_no_region_size("36893488147419103232"); /* 2^65 */
    assert_no_region_size("99999999999999999999999999999999");
    /* Overflow must not wrap into a power of two: 2^64 + 2^20 would wrap to 2^20. */
    assert_no_region_size("18446744073710600192");
    assert_no_region_size("184467440737095516160"); /* 2^64 * 10 */
}

static CU_TestInfo heap_usage_tests[] = {
    {"classify: real bean names", test_classify_real_bean_names},
    {"classify: unknown names", test_classify_unknown},
    {"classify flags: JDK 17 and 25", test_classify_flags_real},
    {"classify flags: Z modes", test_classify_flags_z_modes},
    {"classify flags: not exactly one collector", test_classify_flags_not_one},
    {"collector names", test_kind_names},
    {"which collectors keep the field current", test_which_collectors_keep_the_field_current},
    {"calibrate: JDK 17 layout", test_calibrate_jdk17_layout},
    {"calibrate: JDK 25 layout", test_calibrate_jdk25_layout},
    {"calibrate: farthest candidate", test_calibrate_farthest_candidate},
    {"calibrate: rejects", test_calibrate_rejects},
    {"calibrate: heap grew before VMInit", test_calibrate_heap_grew_before_vminit},
    {"calibrate: small _reserved offset", test_calibrate_small_reserved_offset},
    {"NULL heap usage reads as none", test_no_heap_usage_object},
    {"G1HeapRegionSize: valid values", test_region_size_parse_valid},
    {"G1HeapRegionSize: junk", test_region_size_parse_junk},
    {"G1HeapRegionSize: overflow", test_region_size_parse_overflow},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("heap_usage", heap_usage_tests); }
