/* jni_util.h: the few JNI calls the heap modules make to the management beans, each
 * checked: every call that can throw is followed by an exception check that clears the
 * exception, and a failure reads as NULL (or -1). Callers keep the local references these
 * return inside a PushLocalFrame/PopLocalFrame pair. */
#ifndef HS_JNI_UTIL_H
#define HS_JNI_UTIL_H

#include <jni.h>
#include <stddef.h>

/* Clears a pending exception; returns 1 if there was one. */
int hs_jni_take_exception(JNIEnv *jni);

jclass hs_jni_find_class(JNIEnv *jni, const char *name);
/* NULL when cls is NULL. */
jmethodID hs_jni_find_method(JNIEnv *jni, jclass cls, const char *name, const char *sig);

/* Calls a no-argument static method returning an object; NULL on any failure. */
jobject hs_jni_call_static_object(JNIEnv *jni, const char *class_name, const char *name,
                                  const char *sig);

/* Copies a Java string into buf (truncated, NUL-terminated); "" on failure. */
void hs_jni_copy_string(JNIEnv *jni, jstring s, char *buf, size_t len);

/* java.util.List access: size() and get(i). */
typedef struct {
    jobject list;
    jmethodID size, get;
} hs_java_list;

/* 0, or -1 when list is NULL or java.util.List is not usable. */
int hs_java_list_open(JNIEnv *jni, jobject list, hs_java_list *out);
/* The list's size, or -1 on failure. */
int hs_java_list_size(JNIEnv *jni, const hs_java_list *l);
/* Element i as a local reference, or NULL on failure. */
jobject hs_java_list_get(JNIEnv *jni, const hs_java_list *l, int i);

#endif
