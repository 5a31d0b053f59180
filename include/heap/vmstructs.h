/* vmstructs.h: lookups in HotSpot's VMStructs table (the table the serviceability agent reads).
 *
 * libjvm exports an array of entries, one per C++ field it chooses to describe, and a set of
 * variables giving the layout of one entry (field offsets and the array stride). This module
 * reads that layout through a caller-supplied symbol lookup and finds entries by type and field
 * name. It only reads memory it is pointed at: no JVM, no dlsym here, so the unit test can build
 * a fake table with a layout of its own. */
#ifndef HS_VMSTRUCTS_H
#define HS_VMSTRUCTS_H

#include <stddef.h>
#include <stdint.h>

/* Where the fields of one table entry are, and where the table is. */
typedef struct {
    const unsigned char *entries; /* first entry (the value of gHotSpotVMStructs) */
    size_t stride;                /* bytes from one entry to the next */
    size_t type_name_offset;      /* const char *: class name, e.g. "CollectedHeap" */
    size_t field_name_offset;     /* const char *: field name, e.g. "_reserved" */
    size_t is_static_offset;      /* int32_t: non-zero for static fields */
    size_t offset_offset;         /* uint64_t: field offset in the object (non-static fields) */
    size_t address_offset;        /* void *: address of the field (static fields) */
} hs_vmstructs_layout;

/* One entry found in the table. */
typedef struct {
    int is_static;
    uint64_t offset; /* meaningful for non-static fields */
    void *address;   /* meaningful for static fields */
} hs_vmstructs_field;

/* Returns the address of a named data symbol (as dlsym does), or NULL. */
typedef void *(*hs_symbol_lookup)(void *ctx, const char *name);

/* Fills layout from the gHotSpotVMStruct* symbols found through lookup. Returns 0, or -1 when
 * a symbol is missing or the layout makes no sense (stride too small for the fields, table
 * pointer NULL); *missing (if not NULL) then names the culprit. */
int hs_vmstructs_layout_load(hs_vmstructs_layout *layout, hs_symbol_lookup lookup, void *ctx,
                             const char **missing);

/* Finds type_name::field_name. Returns 0 and fills *out, or -1 when the table has no such
 * entry (the table ends at the first entry whose type or field name is NULL). */
int hs_vmstructs_find(const hs_vmstructs_layout *layout, const char *type_name,
                      const char *field_name, hs_vmstructs_field *out);

/* ---- gHotSpotVMTypes: the sizes of the described types ---------------------------------- */

/* Where the fields of one type entry are, and where the table is. */
typedef struct {
    const unsigned char *entries; /* first entry (the value of gHotSpotVMTypes) */
    size_t stride;                /* bytes from one entry to the next */
    size_t type_name_offset;      /* const char *: type name, e.g. "JVMFlag" */
    size_t size_offset;           /* uint64_t: sizeof the type */
} hs_vmtypes_layout;

/* Fills layout from the gHotSpotVMType* symbols, like hs_vmstructs_layout_load. */
int hs_vmtypes_layout_load(hs_vmtypes_layout *layout, hs_symbol_lookup lookup, void *ctx,
                           const char **missing);

/* sizeof(type_name) as the JVM declares it. Returns 0, or -1 when the table has no such type
 * (it ends at the first entry whose type name is NULL). */
int hs_vmtypes_size(const hs_vmtypes_layout *layout, const char *type_name, uint64_t *size);

/* ---- JVMFlag::flags: the -XX flags ------------------------------------------------------ */

/* HotSpot's flag table, an array of JVMFlag whose element size comes from the types table
 * (it differs between product and debug builds). VMStructs describes it the same way on JDK
 * 17 and 25: static JVMFlag::flags and JVMFlag::numFlags, non-static _name and _addr. */
typedef struct {
    const unsigned char *flags; /* JVMFlag::flags, the first flag */
    size_t count;               /* JVMFlag::numFlags (the last one is a NULL-named sentinel) */
    size_t stride;              /* sizeof(JVMFlag) */
    size_t name_offset;         /* const char *_name */
    size_t addr_offset;         /* void *_addr: where the flag's value lives */
} hs_vmflags;

/* Locates the flag table through the two tables. Returns 0, or -1 with *missing (if not NULL)
 * naming the type or field that is absent or unusable. */
int hs_vmflags_load(hs_vmflags *flags, const hs_vmstructs_layout *structs,
                    const hs_vmtypes_layout *types, const char **missing);

/* The address of a flag's value (a bool flag's is a C++ bool, a size_t flag's a size_t), or
 * NULL when this JVM has no such flag. */
void *hs_vmflags_address(const hs_vmflags *flags, const char *name);

#endif
