/* jvm_identity.c: identity hashes and weak refs through JVMTI and JNI (see jvm_identity.h). */
#include "sampling/jvm_identity.h"

int hs_jvm_identity_hash(void *ctx, jobject obj, jint *out) {
    hs_jvm_env *env = ctx;
    return (int)(*env->jvmti)->GetObjectHashCode(env->jvmti, obj, out);
}

jweak hs_jvm_new_weak_ref(void *ctx, jobject obj) {
    JNIEnv *jni = ((hs_jvm_env *)ctx)->jni;
    jweak ref = (*jni)->NewWeakGlobalRef(jni, obj);
    if (!ref && (*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    return ref;
}

bool hs_jvm_same_object(void *ctx, jweak ref, jobject obj) {
    JNIEnv *jni = ((hs_jvm_env *)ctx)->jni;
    return (*jni)->IsSameObject(jni, ref, obj);
}

bool hs_jvm_ref_cleared(void *ctx, jweak ref) {
    JNIEnv *jni = ((hs_jvm_env *)ctx)->jni;
    return (*jni)->IsSameObject(jni, ref, NULL);
}

void hs_jvm_delete_weak_ref(void *ctx, jweak ref) {
    JNIEnv *jni = ((hs_jvm_env *)ctx)->jni;
    (*jni)->DeleteWeakGlobalRef(jni, ref);
}

uintptr_t hs_jvm_local_address(jobject local) {
    /* An atomic load (acquire, ordered before the bracket's second reading): the slot may be
     * rewritten by a collection this thread does not wait for, and the bracket's readings
     * around this load tell whether that can have happened. */
    return local ? __atomic_load_n((const uintptr_t *)(const void *)local, __ATOMIC_ACQUIRE) : 0;
}
