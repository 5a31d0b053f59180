/* test_vmstructs.c: VMStructs layout loading and lookups on fake tables built in memory: the
 * structs table, the types table and the -XX flag table they describe.
 *
 * The fake tables deliberately use layouts unlike HotSpot's (strides and field order), so that
 * a lookup that hard-codes the real layout fails here. */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "heap/vmstructs.h"

/* Fake entry layout: isStatic@0 typeName@8 offset@16 fieldName@24 address@32 typeString@40. */
#define FAKE_STRIDE 56
#define FAKE_IS_STATIC 0
#define FAKE_TYPE_NAME 8
#define FAKE_OFFSET 16
#define FAKE_FIELD_NAME 24
#define FAKE_ADDRESS 32
#define FAKE_MAX_ENTRIES 12

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

/* Fake types table layout: size@0 typeName@16, stride 40 (HotSpot: typeName@0 ... size@40). */
#define FAKE_TYPE_STRIDE 40
#define FAKE_TYPE_SIZE 0
#define FAKE_TYPE_TYPE_NAME 16

static unsigned char fake_types[6 * FAKE_TYPE_STRIDE];
static const unsigned char *fake_types_var = fake_types;
static uint64_t fake_type_values[3] = {FAKE_TYPE_STRIDE, FAKE_TYPE_TYPE_NAME, FAKE_TYPE_SIZE};
static const char *const fake_type_value_names[3] = {
    "gHotSpotVMTypeEntryArrayStride",
    "gHotSpotVMTypeEntryTypeNameOffset",
    "gHotSpotVMTypeEntrySizeOffset",
};

/* ctx: name of a symbol to hide, or NULL. */
static void *fake_lookup(void *ctx, const char *name) {
    if (ctx != NULL && strcmp(name, (const char *)ctx) == 0) return NULL;
    if (strcmp(name, "gHotSpotVMStructs") == 0) return &fake_table_var;
    if (strcmp(name, "gHotSpotVMTypes") == 0) return &fake_types_var;
    for (int i = 0; i < 6; i++)
        if (strcmp(name, fake_value_names[i]) == 0) return &fake_values[i];
    for (int i = 0; i < 3; i++)
        if (strcmp(name, fake_type_value_names[i]) == 0) return &fake_type_values[i];
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

/* ---- Types table ------------------------------------------------------------------------ */

/* Writes entry i of the fake types table; a NULL name makes a terminator. */
static void set_type(int i, const char *name, uint64_t size) {
    unsigned char *e = fake_types + (size_t)i * FAKE_TYPE_STRIDE;
    memset(e, 0x5A, FAKE_TYPE_STRIDE);
    put(e, FAKE_TYPE_SIZE, &size, sizeof size);
    put(e, FAKE_TYPE_TYPE_NAME, &name, sizeof name);
}

/* A fake JVMFlag is 40 bytes: _type@0 _addr@8 _name@24 (HotSpot 17/25: _type@0 _name@8
 * _addr@16). The stride must come from the types table, not from any C struct. */
#define FAKE_FLAG_SIZE 40
#define FAKE_FLAG_ADDR 8
#define FAKE_FLAG_NAME 24

static hs_vmtypes_layout build_types(void) {
    set_type(0, "Klass", 200);
    set_type(1, "JVMFlag", FAKE_FLAG_SIZE);
    set_type(2, "size_t", 8);
    set_type(3, NULL, 0);
    set_type(4, "Beyond", 16); /* past the end: never found */
    hs_vmtypes_layout l = {fake_types, FAKE_TYPE_STRIDE, FAKE_TYPE_TYPE_NAME, FAKE_TYPE_SIZE};
    return l;
}

static void test_type_sizes(void) {
    hs_vmtypes_layout l = build_types();
    uint64_t size = 0;
    CU_ASSERT_EQUAL_FATAL(hs_vmtypes_size(&l, "JVMFlag", &size), 0);
    CU_ASSERT_EQUAL(size, FAKE_FLAG_SIZE);
    CU_ASSERT_EQUAL_FATAL(hs_vmtypes_size(&l, "Klass", &size), 0);
    CU_ASSERT_EQUAL(size, 200);
    CU_ASSERT_EQUAL(hs_vmtypes_size(&l, "Beyond", &size), -1);
    CU_ASSERT_EQUAL(hs_vmtypes_size(&l, "JVMFla", &size), -1);
    CU_ASSERT_EQUAL(hs_vmtypes_size(&l, "Thread", &size), -1);
}

static void test_types_layout_load(void) {
    build_types();
    hs_vmtypes_layout l;
    const char *missing = "unset";
    CU_ASSERT_EQUAL_FATAL(hs_vmtypes_layout_load(&l, fake_lookup, NULL, &missing), 0);
    CU_ASSERT_PTR_NULL(missing);
    CU_ASSERT_PTR_EQUAL(l.entries, fake_types);
    CU_ASSERT_EQUAL(l.stride, FAKE_TYPE_STRIDE);
    CU_ASSERT_EQUAL(l.type_name_offset, FAKE_TYPE_TYPE_NAME);
    CU_ASSERT_EQUAL(l.size_offset, FAKE_TYPE_SIZE);

    const char *all[4] = {"gHotSpotVMTypes"};
    for (int i = 0; i < 3; i++) all[i + 1] = fake_type_value_names[i];
    for (int i = 0; i < 4; i++) {
        missing = NULL;
        CU_ASSERT_EQUAL(hs_vmtypes_layout_load(&l, fake_lookup, (void *)all[i], &missing), -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(missing);
        CU_ASSERT_STRING_EQUAL(missing, all[i]);
    }
    /* A size field past the end of an entry. */
    fake_type_values[2] = FAKE_TYPE_STRIDE - 4;
    CU_ASSERT_EQUAL(hs_vmtypes_layout_load(&l, fake_lookup, NULL, NULL), -1);
    fake_type_values[2] = FAKE_TYPE_SIZE;
}

/* ---- Flag table ------------------------------------------------------------------------- */

static unsigned char fake_flags[5 * FAKE_FLAG_SIZE];
static const unsigned char *fake_flags_var = fake_flags;
static size_t fake_num_flags;
static _Bool fake_use_g1 = 1, fake_use_z = 0;
static size_t fake_region_size = 4u << 20;

static void set_flag(int i, const char *name, void *addr) {
    unsigned char *e = fake_flags + (size_t)i * FAKE_FLAG_SIZE;
    int32_t type = 0;
    memset(e, 0xC3, FAKE_FLAG_SIZE);
    put(e, 0, &type, sizeof type);
    put(e, FAKE_FLAG_ADDR, &addr, sizeof addr);
    put(e, FAKE_FLAG_NAME, &name, sizeof name);
}

/* The structs table describing JVMFlag, with the field names HotSpot uses; returns its
 * layout, *types gets the types table's. */
static hs_vmstructs_layout build_flag_tables(hs_vmtypes_layout *types) {
    set_flag(0, "UseZGC", &fake_use_z);
    set_flag(1, "G1HeapRegionSize", &fake_region_size);
    set_flag(2, "UseG1GC", &fake_use_g1);
    set_flag(3, NULL, NULL); /* HotSpot's sentinel, counted in numFlags */
    fake_num_flags = 4;
    set_entry(0, "Klass", "_name", 0, 16, NULL);
    set_entry(1, "JVMFlag", "_type", 0, 0, NULL);
    set_entry(2, "JVMFlag", "_name", 0, FAKE_FLAG_NAME, NULL);
    set_entry(3, "JVMFlag", "_addr", 0, FAKE_FLAG_ADDR, NULL);
    set_entry(4, "JVMFlag", "flags", 1, 0, &fake_flags_var);
    set_entry(5, "JVMFlag", "numFlags", 1, 0, &fake_num_flags);
    set_entry(6, NULL, NULL, 0, 0, NULL);
    *types = build_types();
    hs_vmstructs_layout l = {fake_table, FAKE_STRIDE, FAKE_TYPE_NAME, FAKE_FIELD_NAME,
                             FAKE_IS_STATIC, FAKE_OFFSET, FAKE_ADDRESS};
    return l;
}

static void test_flags_found(void) {
    hs_vmtypes_layout types;
    hs_vmstructs_layout structs = build_flag_tables(&types);
    hs_vmflags flags;
    const char *missing = "unset";
    CU_ASSERT_EQUAL_FATAL(hs_vmflags_load(&flags, &structs, &types, &missing), 0);
    CU_ASSERT_PTR_NULL(missing);
    CU_ASSERT_EQUAL(flags.stride, FAKE_FLAG_SIZE);
    CU_ASSERT_EQUAL(flags.count, 4);
    CU_ASSERT_PTR_EQUAL(hs_vmflags_address(&flags, "UseG1GC"), &fake_use_g1);
    CU_ASSERT_PTR_EQUAL(hs_vmflags_address(&flags, "UseZGC"), &fake_use_z);
    const size_t *region = hs_vmflags_address(&flags, "G1HeapRegionSize");
    CU_ASSERT_PTR_NOT_NULL_FATAL(region);
    CU_ASSERT_EQUAL(*region, 4u << 20);
    /* Absent flags and prefixes. */
    CU_ASSERT_PTR_NULL(hs_vmflags_address(&flags, "ZGenerational"));
    CU_ASSERT_PTR_NULL(hs_vmflags_address(&flags, "UseG1"));
}

static void test_flags_walk_stops(void) {
    hs_vmtypes_layout types;
    hs_vmstructs_layout structs = build_flag_tables(&types);
    hs_vmflags flags;
    /* numFlags bounds the walk even where no sentinel follows. */
    fake_num_flags = 2;
    CU_ASSERT_EQUAL_FATAL(hs_vmflags_load(&flags, &structs, &types, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(hs_vmflags_address(&flags, "G1HeapRegionSize"));
    CU_ASSERT_PTR_NULL(hs_vmflags_address(&flags, "UseG1GC"));
    /* A NULL name ends it before numFlags. */
    fake_num_flags = 4;
    set_flag(1, NULL, NULL);
    CU_ASSERT_EQUAL_FATAL(hs_vmflags_load(&flags, &structs, &types, NULL), 0);
    CU_ASSERT_PTR_NULL(hs_vmflags_address(&flags, "UseG1GC"));
    CU_ASSERT_PTR_NOT_NULL(hs_vmflags_address(&flags, "UseZGC"));
}

/* Each piece the flag table needs, when absent or nonsense, is named. */
static void test_flags_missing_pieces(void) {
    static const struct {
        int entry;
        const char *missing;
    } cases[] = {
        {2, "JVMFlag::_name"}, {3, "JVMFlag::_addr"}, {4, "JVMFlag::flags"},
        {5, "JVMFlag::numFlags"},
    };
    hs_vmtypes_layout types;
    hs_vmflags flags;
    const char *missing;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hs_vmstructs_layout structs = build_flag_tables(&types);
        set_entry(cases[i].entry, "JVMFlag", "_other", 0, 0, NULL);
        missing = NULL;
        CU_ASSERT_EQUAL(hs_vmflags_load(&flags, &structs, &types, &missing), -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(missing);
        CU_ASSERT_STRING_EQUAL(missing, cases[i].missing);
        CU_ASSERT_PTR_NULL(hs_vmflags_address(&flags, "UseG1GC"));
    }
    hs_vmstructs_layout structs = build_flag_tables(&types);
    /* No JVMFlag type: the stride is unknown. */
    set_type(1, "JVMFlagX", FAKE_FLAG_SIZE);
    CU_ASSERT_EQUAL(hs_vmflags_load(&flags, &structs, &types, &missing), -1);
    CU_ASSERT_STRING_EQUAL(missing, "type JVMFlag");
    /* _addr would lie past the end of a flag that small. */
    set_type(1, "JVMFlag", FAKE_FLAG_NAME);
    CU_ASSERT_EQUAL(hs_vmflags_load(&flags, &structs, &types, &missing), -1);
    CU_ASSERT_STRING_EQUAL(missing, "JVMFlag::_name");
    /* Static where a field is expected, and an empty table. */
    structs = build_flag_tables(&types);
    set_entry(2, "JVMFlag", "_name", 1, 0, &fake_flags_var);
    CU_ASSERT_EQUAL(hs_vmflags_load(&flags, &structs, &types, &missing), -1);
    structs = build_flag_tables(&types);
    fake_num_flags = 0;
    CU_ASSERT_EQUAL(hs_vmflags_load(&flags, &structs, &types, &missing), -1);
    CU_ASSERT_STRING_EQUAL(missing, "JVMFlag::numFlags");
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
    {"types: sizes by name", test_type_sizes},
    {"types: layout from symbols", test_types_layout_load},
    {"flags: found through both tables", test_flags_found},
    {"flags: the walk stops at numFlags or a NULL name", test_flags_walk_stops},
    {"flags: each missing piece is named", test_flags_missing_pieces},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("vmstructs", vmstructs_tests); }
