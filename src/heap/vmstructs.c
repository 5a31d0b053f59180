/* vmstructs.c: lookups in HotSpot's VMStructs table (see vmstructs.h).
 *
 * HotSpot describes the table's entry layout in exported uint64_t variables rather than a
 * header, because the serviceability agent reads it from another process. We honour that and
 * never assume the layout: every field is read at the offset the JVM declares, with memcpy so
 * that a table with unusual alignment (the unit test's fake one) is read without UB. */
#include "heap/vmstructs.h"

#include <string.h>

/* A real table has a few thousand entries; the cap only stops a walk over a corrupt one. */
#define HS_VMSTRUCTS_MAX_ENTRIES 200000
/* A real entry is 48 bytes; anything far larger is not a VMStructs layout. */
#define HS_VMSTRUCTS_MAX_STRIDE 4096

static int read_layout_value(hs_symbol_lookup lookup, void *ctx, const char *name, size_t *out) {
    const void *sym = lookup(ctx, name);
    if (sym == NULL) return -1;
    uint64_t value;
    memcpy(&value, sym, sizeof value);
    if (value > HS_VMSTRUCTS_MAX_STRIDE) return -1;
    *out = (size_t)value;
    return 0;
}

/* Each field must lie inside one entry. */
static int layout_is_consistent(const hs_vmstructs_layout *l) {
    size_t ptr = sizeof(void *);
    return l->entries != NULL && l->stride > 0 &&
           l->type_name_offset + ptr <= l->stride && l->field_name_offset + ptr <= l->stride &&
           l->is_static_offset + sizeof(int32_t) <= l->stride &&
           l->offset_offset + sizeof(uint64_t) <= l->stride && l->address_offset + ptr <= l->stride;
}

static int types_layout_is_consistent(const hs_vmtypes_layout *l) {
    return l->entries != NULL && l->stride > 0 &&
           l->type_name_offset + sizeof(void *) <= l->stride &&
           l->size_offset + sizeof(uint64_t) <= l->stride;
}

/* Where one layout variable goes: the symbol, and the size_t in the layout struct it fills. */
typedef struct {
    const char *symbol;
    size_t offset_in_layout;
} layout_value;

/* How to load one table's layout. Both layout structs start with the entries pointer. */
_Static_assert(offsetof(hs_vmstructs_layout, entries) == 0, "entries first");
_Static_assert(offsetof(hs_vmtypes_layout, entries) == 0, "entries first");
typedef struct {
    const char *table_symbol; /* a pointer variable: the symbol is its address */
    const layout_value *values;
    size_t value_count;
    size_t layout_size;
    int (*consistent)(const void *layout);
} table_kind;

static int structs_consistent(const void *layout) { return layout_is_consistent(layout); }
static int types_consistent(const void *layout) { return types_layout_is_consistent(layout); }

static const layout_value structs_values[] = {
    {"gHotSpotVMStructEntryArrayStride", offsetof(hs_vmstructs_layout, stride)},
    {"gHotSpotVMStructEntryTypeNameOffset", offsetof(hs_vmstructs_layout, type_name_offset)},
    {"gHotSpotVMStructEntryFieldNameOffset", offsetof(hs_vmstructs_layout, field_name_offset)},
    {"gHotSpotVMStructEntryIsStaticOffset", offsetof(hs_vmstructs_layout, is_static_offset)},
    {"gHotSpotVMStructEntryOffsetOffset", offsetof(hs_vmstructs_layout, offset_offset)},
    {"gHotSpotVMStructEntryAddressOffset", offsetof(hs_vmstructs_layout, address_offset)},
};

static const layout_value types_values[] = {
    {"gHotSpotVMTypeEntryArrayStride", offsetof(hs_vmtypes_layout, stride)},
    {"gHotSpotVMTypeEntryTypeNameOffset", offsetof(hs_vmtypes_layout, type_name_offset)},
    {"gHotSpotVMTypeEntrySizeOffset", offsetof(hs_vmtypes_layout, size_offset)},
};

static const table_kind structs_kind = {
    "gHotSpotVMStructs", structs_values, sizeof structs_values / sizeof structs_values[0],
    sizeof(hs_vmstructs_layout), structs_consistent,
};

static const table_kind types_kind = {
    "gHotSpotVMTypes", types_values, sizeof types_values / sizeof types_values[0],
    sizeof(hs_vmtypes_layout), types_consistent,
};

/* Reads the table pointer, then each layout value into layout. Returns 0, or -1 with *missing
 * (if not NULL) naming the absent symbol or the inconsistency. */
static int load_layout(const table_kind *kind, void *layout, hs_symbol_lookup lookup, void *ctx,
                       const char **missing) {
    const char *ignored;
    if (missing == NULL) missing = &ignored;
    memset(layout, 0, kind->layout_size);
    const void *table_var = lookup(ctx, kind->table_symbol);
    *missing = kind->table_symbol;
    if (table_var == NULL) return -1;
    memcpy(layout, table_var, sizeof(const unsigned char *)); /* the entries pointer */
    for (size_t i = 0; i < kind->value_count; i++) {
        size_t *field = (size_t *)((char *)layout + kind->values[i].offset_in_layout);
        *missing = kind->values[i].symbol;
        if (read_layout_value(lookup, ctx, kind->values[i].symbol, field) != 0) return -1;
    }
    *missing = "a consistent entry layout";
    if (!kind->consistent(layout)) return -1;
    *missing = NULL;
    return 0;
}

int hs_vmstructs_layout_load(hs_vmstructs_layout *layout, hs_symbol_lookup lookup, void *ctx,
                             const char **missing) {
    return load_layout(&structs_kind, layout, lookup, ctx, missing);
}

int hs_vmtypes_layout_load(hs_vmtypes_layout *layout, hs_symbol_lookup lookup, void *ctx,
                           const char **missing) {
    return load_layout(&types_kind, layout, lookup, ctx, missing);
}

static const char *entry_string(const unsigned char *entry, size_t offset) {
    const char *s;
    memcpy(&s, entry + offset, sizeof s);
    return s;
}

int hs_vmstructs_find(const hs_vmstructs_layout *layout, const char *type_name,
                      const char *field_name, hs_vmstructs_field *out) {
    if (!layout_is_consistent(layout)) return -1;
    const unsigned char *entry = layout->entries;
    for (long i = 0; i < HS_VMSTRUCTS_MAX_ENTRIES; i++, entry += layout->stride) {
        const char *type = entry_string(entry, layout->type_name_offset);
        const char *field = entry_string(entry, layout->field_name_offset);
        if (type == NULL || field == NULL) return -1; /* end of table */
        if (strcmp(type, type_name) != 0 || strcmp(field, field_name) != 0) continue;

        int32_t is_static;
        memcpy(&is_static, entry + layout->is_static_offset, sizeof is_static);
        out->is_static = is_static != 0;
        memcpy(&out->offset, entry + layout->offset_offset, sizeof out->offset);
        memcpy(&out->address, entry + layout->address_offset, sizeof out->address);
        return 0;
    }
    return -1;
}

/* ---- The types table (gHotSpotVMTypes) ------------------------------------------------- */

int hs_vmtypes_size(const hs_vmtypes_layout *layout, const char *type_name, uint64_t *size) {
    if (!types_layout_is_consistent(layout)) return -1;
    const unsigned char *entry = layout->entries;
    for (long i = 0; i < HS_VMSTRUCTS_MAX_ENTRIES; i++, entry += layout->stride) {
        const char *type = entry_string(entry, layout->type_name_offset);
        if (type == NULL) return -1; /* end of table */
        if (strcmp(type, type_name) != 0) continue;
        memcpy(size, entry + layout->size_offset, sizeof *size);
        return 0;
    }
    return -1;
}

/* ---- The -XX flag table (JVMFlag::flags) ----------------------------------------------- */

/* A product JVM has about 1,300 flags (debug builds a few hundred more). */
#define HS_VMFLAGS_MAX 20000

/* A non-static JVMFlag field's offset, checked to leave room for a pointer in a flag of
 * flag_size bytes. */
static int flag_field_offset(const hs_vmstructs_layout *structs, const char *field,
                             uint64_t flag_size, size_t *out) {
    hs_vmstructs_field f;
    if (hs_vmstructs_find(structs, "JVMFlag", field, &f) != 0 || f.is_static ||
        f.offset + sizeof(void *) > flag_size)
        return -1;
    *out = (size_t)f.offset;
    return 0;
}

/* Reads the value of a static JVMFlag field (a pointer or a size_t) into *out. */
static int flag_static_word(const hs_vmstructs_layout *structs, const char *field, void *out,
                            size_t size) {
    hs_vmstructs_field f;
    if (hs_vmstructs_find(structs, "JVMFlag", field, &f) != 0 || !f.is_static ||
        f.address == NULL)
        return -1;
    memcpy(out, f.address, size);
    return 0;
}

int hs_vmflags_load(hs_vmflags *flags, const hs_vmstructs_layout *structs,
                    const hs_vmtypes_layout *types, const char **missing) {
    const char *ignored;
    if (missing == NULL) missing = &ignored;
    memset(flags, 0, sizeof *flags);
    uint64_t size = 0;
    *missing = "type JVMFlag";
    if (hs_vmtypes_size(types, "JVMFlag", &size) != 0 || size == 0 ||
        size > HS_VMSTRUCTS_MAX_STRIDE)
        return -1;
    *missing = "JVMFlag::_name";
    if (flag_field_offset(structs, "_name", size, &flags->name_offset) != 0) return -1;
    *missing = "JVMFlag::_addr";
    if (flag_field_offset(structs, "_addr", size, &flags->addr_offset) != 0) return -1;
    *missing = "JVMFlag::flags";
    if (flag_static_word(structs, "flags", &flags->flags, sizeof flags->flags) != 0 ||
        flags->flags == NULL)
        return -1;
    *missing = "JVMFlag::numFlags";
    size_t count;
    if (flag_static_word(structs, "numFlags", &count, sizeof count) != 0 || count == 0 ||
        count > HS_VMFLAGS_MAX)
        return -1;
    flags->count = count;
    flags->stride = (size_t)size;
    *missing = NULL;
    return 0;
}

void *hs_vmflags_address(const hs_vmflags *flags, const char *name) {
    if (flags->flags == NULL) return NULL;
    const unsigned char *entry = flags->flags;
    for (size_t i = 0; i < flags->count; i++, entry += flags->stride) {
        const char *flag_name = entry_string(entry, flags->name_offset);
        if (flag_name == NULL) return NULL; /* the sentinel that ends the table */
        if (strcmp(flag_name, name) != 0) continue;
        void *addr;
        memcpy(&addr, entry + flags->addr_offset, sizeof addr);
        return addr;
    }
    return NULL;
}
