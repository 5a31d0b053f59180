/* vmstructs.c: lookups in HotSpot's VMStructs table (see vmstructs.h).
 *
 * HotSpot describes the table's entry layout in exported uint64_t variables rather than a
 * header, because the serviceability agent reads it from another process. We honour that and
 * never assume the layout: every field is read at the offset the JVM declares, with memcpy so
 * that a table with unusual alignment (the unit test's fake one) is read without UB. */
#include "vmstructs.h"

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

int hs_vmstructs_layout_load(hs_vmstructs_layout *layout, hs_symbol_lookup lookup, void *ctx,
                             const char **missing) {
    static const struct {
        const char *symbol;
        size_t offset_in_layout;
    } values[] = {
        {"gHotSpotVMStructEntryArrayStride", offsetof(hs_vmstructs_layout, stride)},
        {"gHotSpotVMStructEntryTypeNameOffset", offsetof(hs_vmstructs_layout, type_name_offset)},
        {"gHotSpotVMStructEntryFieldNameOffset", offsetof(hs_vmstructs_layout, field_name_offset)},
        {"gHotSpotVMStructEntryIsStaticOffset", offsetof(hs_vmstructs_layout, is_static_offset)},
        {"gHotSpotVMStructEntryOffsetOffset", offsetof(hs_vmstructs_layout, offset_offset)},
        {"gHotSpotVMStructEntryAddressOffset", offsetof(hs_vmstructs_layout, address_offset)},
    };
    const char *ignored;
    if (missing == NULL) missing = &ignored;
    memset(layout, 0, sizeof *layout);

    /* gHotSpotVMStructs is a pointer variable: the symbol is its address. */
    const void *table_var = lookup(ctx, "gHotSpotVMStructs");
    *missing = "gHotSpotVMStructs";
    if (table_var == NULL) return -1;
    memcpy(&layout->entries, table_var, sizeof layout->entries);

    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        size_t *field = (size_t *)((char *)layout + values[i].offset_in_layout);
        *missing = values[i].symbol;
        if (read_layout_value(lookup, ctx, values[i].symbol, field) != 0) return -1;
    }
    *missing = "a consistent entry layout";
    if (!layout_is_consistent(layout)) return -1;
    *missing = NULL;
    return 0;
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
