/* jvm_identity.h: the JVM's side of the identity caches (weak_slots.h): an object's identity
 * hash through JVMTI, and JNI weak refs that confirm and outlive it. The class cache and the
 * method table (refs to a method's class) reach the JVM through these. Their ctx is an
 * hs_jvm_env, or a struct that begins with one. */
#ifndef HS_JVM_IDENTITY_H
#define HS_JVM_IDENTITY_H

#include <jvmti.h>
#include <stdbool.h>
#include <stdint.h>

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

/* The address of the object a JNI local ref designates, read from the ref's slot without a
 * JNI call; 0 for NULL. A local ref (tag bits 0 in every JDK from 11 on) points at a slot
 * the JVM keeps the object's address in, and updates when a collection moves the object;
 * the calling thread owns the slot for as long as the ref lives. The value is only a key:
 * it is never dereferenced, and it names the object only within a quiet stretch
 * (gc_bracket.h), which its user checks around the read. */
uintptr_t hs_jvm_local_address(jobject local);

/* All five, as an hs_identity_ops initializer (a constant expression, for static tables). */
#define HS_JVM_IDENTITY_OPS                                                                    \
    {.hash = hs_jvm_identity_hash, .new_ref = hs_jvm_new_weak_ref, .same = hs_jvm_same_object, \
     .cleared = hs_jvm_ref_cleared, .delete_ref = hs_jvm_delete_weak_ref}

#endif
