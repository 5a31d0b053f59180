/* jvm_identity.h: the JVM's side of the identity caches (weak_slots.h): an object's identity
 * hash through JVMTI, and JNI weak refs that confirm and outlive it. The class cache and the
 * method table (refs to a method's class) reach the JVM through these. Their ctx is an
 * hs_jvm_env, or a struct that begins with one. */
#ifndef HS_JVM_IDENTITY_H
#define HS_JVM_IDENTITY_H

#include <jvmti.h>
#include <stdbool.h>

#include "sampling/weak_slots.h"

typedef struct {
    jvmtiEnv *jvmti;
    JNIEnv *jni;
} hs_jvm_env;

int hs_jvm_identity_hash(void *env, jobject obj, jint *out);
jweak hs_jvm_new_weak_ref(void *env, jobject obj);        /* NULL on failure */
bool hs_jvm_same_object(void *env, jweak ref, jobject obj);
bool hs_jvm_ref_cleared(void *env, jweak ref);            /* its object was collected */
void hs_jvm_delete_weak_ref(void *env, jweak ref);

/* All five, as an hs_identity_ops initializer (a constant expression, for static tables). */
#define HS_JVM_IDENTITY_OPS                                                                    \
    {.hash = hs_jvm_identity_hash, .new_ref = hs_jvm_new_weak_ref, .same = hs_jvm_same_object, \
     .cleared = hs_jvm_ref_cleared, .delete_ref = hs_jvm_delete_weak_ref}

#endif
