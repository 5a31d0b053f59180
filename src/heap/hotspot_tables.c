/* hotspot_tables.c: the running libjvm's VMStructs tables and -XX flags (see hotspot_tables.h).
 *
 * The flag table is what HotSpot itself consults for -XX:+PrintFlagsFinal, and the collector
 * flags in it are final by VMInit (argument processing, including the ergonomic choice of the
 * collector, is over). Reading them here spares the ~340 classes that asking the management
 * beans the same question loads at startup. */
#include "heap/hotspot_tables.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"

static void *dl_lookup(void *handle, const char *name) { return dlsym(handle, name); }

typedef int (*layout_loader)(void *layout, void *handle, const char **missing);

static int load_structs(void *layout, void *handle, const char **missing) {
    return hs_vmstructs_layout_load(layout, dl_lookup, handle, missing);
}

static int load_types(void *layout, void *handle, const char **missing) {
    return hs_vmtypes_layout_load(layout, dl_lookup, handle, missing);
}

/* Loads a layout from the process's global symbols, or, when libjvm was loaded RTLD_LOCAL
 * (embedded JVMs), from libjvm itself, found through one of its JVMTI functions. */
static int load_layout(jvmtiEnv *jvmti, layout_loader load, void *layout, char *why) {
    const char *missing = NULL;
    if (load(layout, RTLD_DEFAULT, &missing) == 0) return 0;

    Dl_info info;
    if (dladdr((void *)(*jvmti)->GetVersionNumber, &info) == 0 || info.dli_fname == NULL) {
        snprintf(why, HS_HOTSPOT_WHY_MAX, "no %s symbol and libjvm not found", missing);
        return -1;
    }
    void *libjvm = dlopen(info.dli_fname, RTLD_NOLOAD | RTLD_LAZY);
    if (libjvm == NULL) {
        snprintf(why, HS_HOTSPOT_WHY_MAX, "cannot reopen %s", info.dli_fname);
        return -1;
    }
    int rc = load(layout, libjvm, &missing);
    /* Only drops the reference RTLD_NOLOAD took: the JVM keeps libjvm (and the table) loaded. */
    dlclose(libjvm);
    if (rc != 0) snprintf(why, HS_HOTSPOT_WHY_MAX, "%s: no %s", info.dli_fname, missing);
    return rc;
}

void hs_hotspot_tables_load(hs_hotspot_tables *t, jvmtiEnv *jvmti) {
    memset(t, 0, sizeof *t);
    if (load_layout(jvmti, load_structs, &t->structs, t->why) != 0) {
        snprintf(t->flags_why, sizeof t->flags_why, "%s", t->why);
        return;
    }
    t->structs_ok = 1;
    hs_vmtypes_layout types;
    if (load_layout(jvmti, load_types, &types, t->flags_why) != 0) return;
    const char *missing = NULL;
    if (hs_vmflags_load(&t->flags, &t->structs, &types, &missing) != 0) {
        snprintf(t->flags_why, sizeof t->flags_why, "no usable %s in VMStructs", missing);
        return;
    }
    t->flags_ok = 1;
}

int hs_hotspot_bool_flag(const hs_hotspot_tables *t, const char *name) {
    const void *addr = t->flags_ok ? hs_vmflags_address(&t->flags, name) : NULL;
    if (addr == NULL) return -1;
    unsigned char value; /* HotSpot's bool flags are C++ bools: one byte, 0 or 1 */
    memcpy(&value, addr, sizeof value);
    return value != 0;
}

int hs_hotspot_size_flag(const hs_hotspot_tables *t, const char *name, uint64_t *value) {
    const void *addr = t->flags_ok ? hs_vmflags_address(&t->flags, name) : NULL;
    if (addr == NULL) return -1;
    size_t v;
    memcpy(&v, addr, sizeof v);
    *value = v;
    return 0;
}

int hs_jvm_property(jvmtiEnv *jvmti, const char *key, char *buf, size_t len) {
    char *value = NULL;
    if ((*jvmti)->GetSystemProperty(jvmti, key, &value) != JVMTI_ERROR_NONE || value == NULL) {
        snprintf(buf, len, "?");
        return -1;
    }
    snprintf(buf, len, "%s", value);
    jvmtiError err = (*jvmti)->Deallocate(jvmti, (unsigned char *)value);
    if (err != JVMTI_ERROR_NONE) /* the value is ours already; only its bytes are lost */
        hs_debug("Deallocate of the property %s failed (JVMTI error %d)", key, (int)err);
    return 0;
}
