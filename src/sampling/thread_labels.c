/* thread_labels.c: Java threads' ids and names through JNI and JVMTI, for thread_ids.h
 * (see thread_labels.h).
 *
 * Field layout: `tid` (long) and `name` (String) are fields of java.lang.Thread itself in
 * JDK 11 through 25 (JDK 19 moved other fields into Thread.FieldHolder, not these two;
 * virtual threads inherit them), looked up by name and type, never by offset. A name is
 * read into the caller's bounded buffer with GetStringUTFRegion after GetStringUTFLength
 * says it fits (no JVM allocation, unlike GetStringUTFChars or GetThreadInfo); a name that
 * does not fit, or a missing field, falls back to GetThreadInfo, cut as before. Both give
 * modified UTF-8, so the labels are the same either way. */
#include "sampling/thread_labels.h"

#include <stdbool.h>
#include <stdio.h>

#include "base/log.h"
#include "sampling/jvm_identity.h"

/* Not a JVMTI code: this JVM's java.lang.Thread has no `tid` field. */
#define NO_TID_FIELD (-1)

/* Set before the event is enabled (which orders them before any callback), read by it. */
static _Atomic(jfieldID) tid_field;
static _Atomic(jfieldID) name_field;

static jfieldID thread_field(JNIEnv *jni, jclass thread_class, const char *name, const char *type) {
    jfieldID field = (*jni)->GetFieldID(jni, thread_class, name, type);
    if (!field && (*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni); /* NoSuchFieldError */
    return field;
}

void hs_thread_labels_prepare(JNIEnv *jni) {
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jfieldID tid = NULL, name = NULL;
    if (thread_class) {
        tid = thread_field(jni, thread_class, "tid", "J");
        name = thread_field(jni, thread_class, "name", "Ljava/lang/String;");
        (*jni)->DeleteLocalRef(jni, thread_class);
    } else if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
    }
    atomic_store(&tid_field, tid);
    atomic_store(&name_field, name);
    static atomic_bool said;
    if ((!tid || !name) && !atomic_exchange(&said, true))
        hs_warn("threads=true: java.lang.Thread has no field %s in this JVM; thread names are "
                "read through GetThreadInfo%s (slower, still right)",
                !tid ? (!name ? "tid or name" : "tid") : "name", !tid ? " at every sample" : "");
}

/* JNI's IsVirtualThread (JNI 19+, right after GetModule in the function table), looked up
 * only when the JVM says its table has it: the agent also runs on JDK 11 and 17, whose
 * tables end before it, and may be built against their jni.h. */
#ifdef JNI_VERSION_19
#define HAS_IS_VIRTUAL_THREAD(functions) (functions)->IsVirtualThread
#else
typedef struct {
    struct JNINativeInterface_ jdk17;
    jboolean(JNICALL *IsVirtualThread)(JNIEnv *env, jobject obj);
} jni_functions_19;
#define HAS_IS_VIRTUAL_THREAD(functions) ((const jni_functions_19 *)(const void *)(functions))->IsVirtualThread
#endif

static bool is_virtual(JNIEnv *jni, jthread thread) {
    if ((*jni)->GetVersion(jni) < 0x00130000) return false; /* before JDK 19: no virtual threads */
    jboolean (JNICALL *is_virtual_thread)(JNIEnv *, jobject) = HAS_IS_VIRTUAL_THREAD(*jni);
    return is_virtual_thread && is_virtual_thread(jni, thread);
}

/* GetLongField has no failure to report: the field is a long of the jthread's class, which
 * is java.lang.Thread or a subclass. */
static int thread_tid(void *ctx, jthread thread, uint64_t *out) {
    JNIEnv *jni = ((hs_jvm_env *)ctx)->jni;
    jfieldID field = atomic_load_explicit(&tid_field, memory_order_relaxed);
    if (!field) return NO_TID_FIELD;
    *out = (uint64_t)(*jni)->GetLongField(jni, thread, field);
    return 0;
}

/* The `name` field into buf when it is set and fits whole: true; else false (nothing
 * pending). */
static bool read_name_field(JNIEnv *jni, jthread thread, char *buf, size_t len) {
    jfieldID field = atomic_load_explicit(&name_field, memory_order_relaxed);
    jstring name = field ? (jstring)(*jni)->GetObjectField(jni, thread, field) : NULL;
    if (!name) return false;
    jsize chars = (*jni)->GetStringLength(jni, name);
    jsize bytes = (*jni)->GetStringUTFLength(jni, name);
    bool fits = chars >= 0 && bytes >= 0 && (size_t)bytes < len;
    if (fits) {
        (*jni)->GetStringUTFRegion(jni, name, 0, chars, buf);
        buf[bytes] = '\0';
        if ((*jni)->ExceptionCheck(jni)) {
            (*jni)->ExceptionClear(jni);
            fits = false;
        }
    }
    (*jni)->DeleteLocalRef(jni, name);
    return fits;
}

/* The thread's name through GetThreadInfo, cut to len. */
static int thread_info_name(hs_jvm_env *env, jthread thread, char *buf, size_t len) {
    jvmtiThreadInfo info = {0};
    jvmtiError err = (*env->jvmti)->GetThreadInfo(env->jvmti, thread, &info);
    if (err != JVMTI_ERROR_NONE) return (int)err;
    snprintf(buf, len, "%s", info.name ? info.name : "");
    if (info.name) (*env->jvmti)->Deallocate(env->jvmti, (unsigned char *)info.name);
    if (info.thread_group) (*env->jni)->DeleteLocalRef(env->jni, info.thread_group);
    if (info.context_class_loader) (*env->jni)->DeleteLocalRef(env->jni, info.context_class_loader);
    return 0;
}

static int thread_name(void *ctx, jthread thread, char *buf, size_t len) {
    hs_jvm_env *env = ctx;
    if (!read_name_field(env->jni, thread, buf, len)) {
        int err = thread_info_name(env, thread, buf, len);
        if (err != 0) return err;
    }
    if (buf[0] == '\0')
        snprintf(buf, len, "%s", is_virtual(env->jni, thread) ? HS_THREAD_NAME_UNNAMED_VIRTUAL
                                                              : HS_THREAD_NAME_UNNAMED);
    return 0;
}

static const hs_thread_ops THREAD_OPS = {.id = thread_tid, .name = thread_name};

uint32_t hs_thread_label(hs_thread_ids *ids, jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    hs_jvm_env env = {.jvmti = jvmti, .jni = jni};
    return hs_thread_ids_get(ids, &THREAD_OPS, &env, thread);
}
