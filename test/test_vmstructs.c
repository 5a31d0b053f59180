/* test_vmstructs.c: VMStructs layout loading and lookups on a fake table built in memory.
 *
 * The fake table deliberately uses a layout unlike HotSpot's (stride 56, fields reordered),
 * so that a lookup that hard-codes the real layout fails here. */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "vmstructs.h"

/* Fake entry layout: isStatic@0 typeName@8 offset@16 fieldName@24 address@32 typeString@40. */
#define FAKE_STRIDE 56
#define FAKE_IS_STATIC 0
#define FAKE_TYPE_NAME 8
#define FAKE_OFFSET 16
#define FAKE_FIELD_NAME 24
#define FAKE_ADDRESS 32
#define FAKE_MAX_ENTRIES 8

static unsigned char fake_table[FAKE_MAX_ENTRIES * FAKE_STRIDE];
static void *fake_collected_heap = (void *)0x1234;

static void put(unsigned char *entry, size_t offset, const void *value, size_t size) {
    memcpy(entry + offset, value, size);
}

/* Writes entry i of the fake table; type or field NULL makes a terminator. */
static void set_entry(int i, const char *type, const char *field, int32_t is_static,
                      uint64_t offset, void *address) {
    unsigned char *e = fake_table + (size_t)i * FAKE_STRIDE;
    const char *type_string = "ignored";
    memset(e, 0xA5, FAKE_STRIDE); /* junk in the padding must not matter */
    put(e, FAKE_IS_STATIC, &is_static, sizeof is_static);
    put(e, FAKE_TYPE_NAME, &type, sizeof type);
    put(e, FAKE_OFFSET, &offset, sizeof offset);
    put(e, FAKE_FIELD_NAME, &field, sizeof field);
    put(e, FAKE_ADDRESS, &address, sizeof address);
    put(e, 40, &type_string, sizeof type_string);
}

/* Fills the fake table afresh; returns the layout that describes it. */
static hs_vmstructs_layout build_table(void) {
    set_entry(0, "Klass", "_name", 0, 16, NULL);
    set_entry(1, "Universe", "_collectedHeap", 1, 0, &fake_collected_heap);
    set_entry(2, "CollectedHeap", "_reserved", 0, 72, NULL);
    set_entry(3, "MemRegion", "_start", 0, 0, NULL);
    set_entry(4, "CollectedHeap", "_total_collections", 0, 104, NULL);
    set_entry(5, NULL, NULL, 0, 0, NULL);
    /* Beyond the end: must never be found. */
    set_entry(6, "Thread", "_osthread", 0, 8, NULL);
    hs_vmstructs_layout l = {fake_table, FAKE_STRIDE, FAKE_TYPE_NAME, FAKE_FIELD_NAME,
                             FAKE_IS_STATIC, FAKE_OFFSET, FAKE_ADDRESS};
    return l;
}

static void test_find_non_static_field(void) {
    hs_vmstructs_layout l = build_table();
    hs_vmstructs_field f;
    CU_ASSERT_EQUAL_FATAL(hs_vmstructs_find(&l, "CollectedHeap", "_reserved", &f), 0);
    CU_ASSERT_EQUAL(f.is_static, 0);
    CU_ASSERT_EQUAL(f.offset, 72);
    CU_ASSERT_EQUAL_FATAL(hs_vmstructs_find(&l, "CollectedHeap", "_total_collections", &f), 0);
    CU_ASSERT_EQUAL(f.offset, 104);
}

static void test_find_static_field(void) {
    hs_vmstructs_layout l = build_table();
    hs_vmstructs_field f;
    CU_ASSERT_EQUAL_FATAL(hs_vmstructs_find(&l, "Universe", "_collectedHeap", &f), 0);
    CU_ASSERT_EQUAL(f.is_static, 1);
    CU_ASSERT_PTR_EQUAL(f.address, &fake_collected_heap);
    void *heap;
    memcpy(&heap, f.address, sizeof heap);
    CU_ASSERT_PTR_EQUAL(heap, (void *)0x1234);
}

static void test_missing_entries(void) {
    hs_vmstructs_layout l = build_table();
    hs_vmstructs_field f;
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "CollectedHeap", "_used_at_last_gc", &f), -1);
    /* The field name exists, but under another type, and vice versa. */
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "Universe", "_reserved", &f), -1);
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "CollectedHeap", "_collectedHeap", &f), -1);
    /* Prefixes do not match. */
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "CollectedHeap", "_reserve", &f), -1);
}

static void test_table_ends_at_null_name(void) {
    hs_vmstructs_layout l = build_table();
    hs_vmstructs_field f;
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "Thread", "_osthread", &f), -1);
    /* A NULL field name alone also ends the table. */
    set_entry(2, "CollectedHeap", NULL, 0, 0, NULL);
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "CollectedHeap", "_total_collections", &f), -1);
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "Universe", "_collectedHeap", &f), 0);
}

static void test_unaligned_stride(void) {
    /* Stride 52 puts every other entry's pointers off their natural alignment. */
    static unsigned char odd[4 * 52];
    const char *type = "CollectedHeap", *field = "_reserved", *none = NULL;
    uint64_t offset = 48;
    int32_t is_static = 0;
    memset(odd, 0, sizeof odd);
    for (int i = 0; i < 2; i++) {
        const char *t = i == 0 ? "Other" : type;
        memcpy(odd + i * 52 + 0, &t, sizeof t);
        memcpy(odd + i * 52 + 8, &field, sizeof field);
        memcpy(odd + i * 52 + 16, &is_static, sizeof is_static);
        memcpy(odd + i * 52 + 20, &offset, sizeof offset);
    }
    memcpy(odd + 2 * 52, &none, sizeof none);
    hs_vmstructs_layout l = {odd, 52, 0, 8, 16, 20, 28};
    hs_vmstructs_field f;
    CU_ASSERT_EQUAL_FATAL(hs_vmstructs_find(&l, "CollectedHeap", "_reserved", &f), 0);
    CU_ASSERT_EQUAL(f.offset, 48);
}

/* ---- Layout loading through a fake symbol table ---------------------------------------- */

static const unsigned char *fake_table_var = fake_table;
static uint64_t fake_values[6] = {FAKE_STRIDE, FAKE_TYPE_NAME, FAKE_FIELD_NAME,
                                  FAKE_IS_STATIC, FAKE_OFFSET, FAKE_ADDRESS};
static const char *const fake_value_names[6] = {
    "gHotSpotVMStructEntryArrayStride",     "gHotSpotVMStructEntryTypeNameOffset",
    "gHotSpotVMStructEntryFieldNameOffset", "gHotSpotVMStructEntryIsStaticOffset",
    "gHotSpotVMStructEntryOffsetOffset",    "gHotSpotVMStructEntryAddressOffset",
};

/* ctx: name of a symbol to hide, or NULL. */
static void *fake_lookup(void *ctx, const char *name) {
    if (ctx != NULL && strcmp(name, (const char *)ctx) == 0) return NULL;
    if (strcmp(name, "gHotSpotVMStructs") == 0) return &fake_table_var;
    for (int i = 0; i < 6; i++)
        if (strcmp(name, fake_value_names[i]) == 0) return &fake_values[i];
    return NULL;
}

static void test_layout_load(void) {
    build_table(); /* its layout is what the symbols must describe */
    hs_vmstructs_layout l;
    const char *missing = "unset";
    CU_ASSERT_EQUAL_FATAL(hs_vmstructs_layout_load(&l, fake_lookup, NULL, &missing), 0);
    CU_ASSERT_PTR_NULL(missing);
    CU_ASSERT_PTR_EQUAL(l.entries, fake_table);
    CU_ASSERT_EQUAL(l.stride, FAKE_STRIDE);
    CU_ASSERT_EQUAL(l.type_name_offset, FAKE_TYPE_NAME);
    CU_ASSERT_EQUAL(l.field_name_offset, FAKE_FIELD_NAME);
    CU_ASSERT_EQUAL(l.is_static_offset, FAKE_IS_STATIC);
    CU_ASSERT_EQUAL(l.offset_offset, FAKE_OFFSET);
    CU_ASSERT_EQUAL(l.address_offset, FAKE_ADDRESS);
    hs_vmstructs_field f;
    CU_ASSERT_EQUAL(hs_vmstructs_find(&l, "CollectedHeap", "_reserved", &f), 0);
    CU_ASSERT_EQUAL(f.offset, 72);
}

static void test_layout_load_missing_symbol(void) {
    const char *all[7] = {"gHotSpotVMStructs"};
    for (int i = 0; i < 6; i++) all[i + 1] = fake_value_names[i];
    for (int i = 0; i < 7; i++) {
        hs_vmstructs_layout l;
        const char *missing = NULL;
        CU_ASSERT_EQUAL(hs_vmstructs_layout_load(&l, fake_lookup, (void *)all[i], &missing), -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(missing);
        CU_ASSERT_STRING_EQUAL(missing, all[i]);
    }
}

static void test_layout_load_rejects_nonsense(void) {
    hs_vmstructs_layout l;
    const char *missing = NULL;
    /* An address field that would lie past the end of an entry. */
    fake_values[5] = FAKE_STRIDE - 4;
    CU_ASSERT_EQUAL(hs_vmstructs_layout_load(&l, fake_lookup, NULL, &missing), -1);
    fake_values[5] = FAKE_ADDRESS;
    /* A stride no real table has. */
    fake_values[0] = 1u << 20;
    CU_ASSERT_EQUAL(hs_vmstructs_layout_load(&l, fake_lookup, NULL, &missing), -1);
    CU_ASSERT_STRING_EQUAL(missing, "gHotSpotVMStructEntryArrayStride");
    fake_values[0] = FAKE_STRIDE;
    /* A NULL table. */
    fake_table_var = NULL;
    CU_ASSERT_EQUAL(hs_vmstructs_layout_load(&l, fake_lookup, NULL, &missing), -1);
    fake_table_var = fake_table;
    CU_ASSERT_EQUAL(hs_vmstructs_layout_load(&l, fake_lookup, NULL, NULL), 0);
}

static CU_TestInfo vmstructs_tests[] = {
    {"non-static field: offset", test_find_non_static_field},
    {"static field: address", test_find_static_field},
    {"missing entries are not found", test_missing_entries},
    {"table ends at a NULL name", test_table_ends_at_null_name},
    {"unaligned stride", test_unaligned_stride},
    {"layout from symbols", test_layout_load},
    {"layout: each missing symbol is named", test_layout_load_missing_symbol},
    {"layout: nonsense is rejected", test_layout_load_rejects_nonsense},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("vmstructs", vmstructs_tests); }
