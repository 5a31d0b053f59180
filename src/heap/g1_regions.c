/* g1_regions.c: G1's region size and humongous threshold (see g1_regions.h). */
#include "heap/g1_regions.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "heap/jni_util.h"
#include "base/log.h"
#include "heap/vmstructs.h"

static int is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

int hs_g1_region_size_parse(const char *text, uint64_t *region_size) {
    if (text == NULL || *text == '\0') return -1;
    uint64_t value = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p)) return -1;
        unsigned digit = (unsigned)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10) return -1;
        value = value * 10 + digit;
    }
    if (!is_power_of_two(value)) return -1;
    *region_size = value;
    return 0;
}

/* HotSpotDiagnosticMXBean.getVMOption("G1HeapRegionSize").getValue() as a local reference, or
 * NULL (module jdk.management absent, or an exception). */
static jstring region_size_flag_value(JNIEnv *jni) {
    jclass factory = hs_jni_find_class(jni, "java/lang/management/ManagementFactory");
    jclass diagnostic = hs_jni_find_class(jni, "com/sun/management/HotSpotDiagnosticMXBean");
    jclass option_class = hs_jni_find_class(jni, "com/sun/management/VMOption");
    jmethodID get_option = hs_jni_find_method(jni, diagnostic, "getVMOption",
                                              "(Ljava/lang/String;)Lcom/sun/management/VMOption;");
    jmethodID get_value = hs_jni_find_method(jni, option_class, "getValue", "()Ljava/lang/String;");
    if (factory == NULL || get_option == NULL || get_value == NULL) return NULL;
    jmethodID get_bean = (*jni)->GetStaticMethodID(
        jni, factory, "getPlatformMXBean",
        "(Ljava/lang/Class;)Ljava/lang/management/PlatformManagedObject;");
    if (hs_jni_take_exception(jni) || get_bean == NULL) return NULL;
    jobject bean = (*jni)->CallStaticObjectMethod(jni, factory, get_bean, diagnostic);
    if (hs_jni_take_exception(jni) || bean == NULL) return NULL;
    jstring flag = (*jni)->NewStringUTF(jni, "G1HeapRegionSize");
    if (hs_jni_take_exception(jni) || flag == NULL) return NULL;
    jobject option = (*jni)->CallObjectMethod(jni, bean, get_option, flag);
    if (hs_jni_take_exception(jni) || option == NULL) return NULL;
    jstring value = (*jni)->CallObjectMethod(jni, option, get_value);
    return hs_jni_take_exception(jni) ? NULL : value;
}

/* The region size from the G1HeapRegionSize flag, which G1 sets ergonomically when the user
 * did not, so it holds the size in use. Returns 0 or -1. */
static int region_size_from_flag(JNIEnv *jni, uint64_t *region_size) {
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        hs_jni_take_exception(jni);
        return -1;
    }
    int rc = -1;
    jstring value = region_size_flag_value(jni);
    const char *utf = value != NULL ? (*jni)->GetStringUTFChars(jni, value, NULL) : NULL;
    if (hs_jni_take_exception(jni)) utf = NULL;
    if (utf != NULL) {
        rc = hs_g1_region_size_parse(utf, region_size);
        if (rc != 0) hs_debug("G1HeapRegionSize reads \"%s\": not a region size", utf);
        (*jni)->ReleaseStringUTFChars(jni, value, utf);
    }
    (*jni)->PopLocalFrame(jni, NULL);
    return rc;
}

/* The static GrainBytes of G1's region class, renamed from HeapRegion to G1HeapRegion in
 * JDK 23. Returns 0 or -1. */
static int region_size_from_grain_bytes(const hs_hotspot_tables *tables, uint64_t *region_size,
                                        const char **where) {
    static const char *const region_types[] = {"G1HeapRegion", "HeapRegion"};
    if (!tables->structs_ok) {
        hs_debug("no VMStructs for GrainBytes: %s", tables->why);
        return -1;
    }
    for (size_t i = 0; i < sizeof region_types / sizeof region_types[0]; i++) {
        hs_vmstructs_field grain;
        if (hs_vmstructs_find(&tables->structs, region_types[i], "GrainBytes", &grain) != 0 ||
            !grain.is_static || grain.address == NULL)
            continue;
        size_t bytes;
        memcpy(&bytes, grain.address, sizeof bytes);
        if (!is_power_of_two(bytes)) return -1;
        *region_size = bytes;
        *where = region_types[i];
        return 0;
    }
    return -1;
}

/* The G1HeapRegionSize flag read in the JVM's flag table, without the management beans. */
static int region_size_from_flag_table(const hs_hotspot_tables *tables, uint64_t *region_size) {
    uint64_t bytes;
    if (hs_hotspot_size_flag(tables, "G1HeapRegionSize", &bytes) != 0 || !is_power_of_two(bytes))
        return -1;
    *region_size = bytes;
    return 0;
}

/* Tried in order of cost: the flag in the flag table, GrainBytes (both plain reads), then the
 * flag through HotSpotDiagnosticMXBean (loads the management classes). */
uint64_t hs_g1_humongous_threshold(hs_gc_kind gc, const hs_hotspot_tables *tables, JNIEnv *jni) {
    if (gc != HS_GC_G1 && gc != HS_GC_UNKNOWN) return 0;
    uint64_t region_size = 0;
    const char *grain_type = NULL;
    char source[64];
    if (gc == HS_GC_G1 && region_size_from_flag_table(tables, &region_size) == 0) {
        snprintf(source, sizeof source, "the G1HeapRegionSize flag in VMStructs");
    } else if (region_size_from_grain_bytes(tables, &region_size, &grain_type) == 0) {
        snprintf(source, sizeof source, "VMStructs %s::GrainBytes%s", grain_type,
                 gc == HS_GC_UNKNOWN ? ", so the collector is G1" : "");
    } else if (gc == HS_GC_G1 && region_size_from_flag(jni, &region_size) == 0) {
        snprintf(source, sizeof source, "the G1HeapRegionSize flag");
    } else {
        if (gc == HS_GC_G1)
            hs_info("G1 humongous threshold unknown: neither the G1HeapRegionSize flag nor "
                    "VMStructs GrainBytes could be read");
        return 0;
    }
    uint64_t threshold = region_size / 2;
    hs_info("G1 humongous threshold: %llu bytes (region size %llu, from %s)",
            (unsigned long long)threshold, (unsigned long long)region_size, source);
    return threshold;
}
