/* hotspot_tables.h: the VMStructs tables of the running libjvm, and its -XX flags read through
 * them, without a single Java call (no class is loaded); and the VM's own system properties.
 *
 * Finds the table symbols in the process (or in libjvm itself when it was loaded RTLD_LOCAL),
 * loads their layouts with vmstructs.h, and reads flag values by name. Loaded once on the
 * VMInit thread; afterwards the struct is only read. */
#ifndef HS_HOTSPOT_TABLES_H
#define HS_HOTSPOT_TABLES_H

#include <jvmti.h>
#include <stddef.h>
#include <stdint.h>

#include "heap/vmstructs.h"

#define HS_HOTSPOT_WHY_MAX 192

typedef struct {
    int structs_ok;              /* structs is usable */
    hs_vmstructs_layout structs; /* gHotSpotVMStructs */
    int flags_ok;                /* flags is usable (needs structs and gHotSpotVMTypes) */
    hs_vmflags flags;            /* JVMFlag::flags */
    char why[HS_HOTSPOT_WHY_MAX];       /* when !structs_ok: why */
    char flags_why[HS_HOTSPOT_WHY_MAX]; /* when !flags_ok: why */
} hs_hotspot_tables;

/* Fills t; never fails hard: structs_ok and flags_ok say what was found. */
void hs_hotspot_tables_load(hs_hotspot_tables *t, jvmtiEnv *jvmti);

/* A bool flag's value: 1 or 0, or -1 when there is no flag table or no such flag. */
int hs_hotspot_bool_flag(const hs_hotspot_tables *t, const char *name);

/* A size_t flag's value (e.g. G1HeapRegionSize). Returns 0, or -1 when it cannot be read. */
int hs_hotspot_size_flag(const hs_hotspot_tables *t, const char *name, uint64_t *value);

/* Copies the system property key (one the VM defines: java.vm.version, ...) into buf.
 * Returns 0, or -1 with buf "?" when JVMTI cannot read it. */
int hs_jvm_property(jvmtiEnv *jvmti, const char *key, char *buf, size_t len);

#endif
