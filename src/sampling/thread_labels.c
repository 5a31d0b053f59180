/* thread_labels.c: Java threads' identity hashes, weak refs and names through JVMTI and JNI,
 * for thread_ids.h (see thread_labels.h). */
#include "sampling/thread_labels.h"

#include <stdbool.h>
#include <stdio.h>

#include "sampling/jvm_identity.h"

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

static int thread_name(void *ctx, jthread thread, char *buf, size_t len) {
    hs_jvm_env *env = ctx;
    jvmtiThreadInfo info = {0};
    jvmtiError err = (*env->jvmti)->GetThreadInfo(env->jvmti, thread, &info);
    if (err != JVMTI_ERROR_NONE) return (int)err;
    const char *name = info.name && info.name[0] ? info.name
                       : is_virtual(env->jni, thread) ? HS_THREAD_NAME_UNNAMED_VIRTUAL
                                                      : HS_THREAD_NAME_UNNAMED;
    snprintf(buf, len, "%s", name);
    if (info.name) (*env->jvmti)->Deallocate(env->jvmti, (unsigned char *)info.name);
    if (info.thread_group) (*env->jni)->DeleteLocalRef(env->jni, info.thread_group);
    if (info.context_class_loader) (*env->jni)->DeleteLocalRef(env->jni, info.context_class_loader);
    return 0;
}

static const hs_thread_ops THREAD_OPS = {
    .identity = {.hash = hs_jvm_identity_hash, .new_ref = hs_jvm_new_weak_ref,
                 .same = hs_jvm_same_object, .cleared = hs_jvm_ref_cleared,
                 .delete_ref = hs_jvm_delete_weak_ref},
    .name = thread_name,
};

uint32_t hs_thread_label(hs_thread_ids *ids, jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    hs_jvm_env env = {.jvmti = jvmti, .jni = jni};
    return hs_thread_ids_get(ids, &THREAD_OPS, &env, thread);
}

void hs_thread_labels_destroy(hs_thread_ids *ids) { hs_thread_ids_destroy(ids, NULL, NULL); }
