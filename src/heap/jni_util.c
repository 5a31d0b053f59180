/* jni_util.c: checked JNI calls for the heap modules (see jni_util.h). */
#include "heap/jni_util.h"

#include <stdio.h>

int hs_jni_take_exception(JNIEnv *jni) {
    if (!(*jni)->ExceptionCheck(jni)) return 0;
    (*jni)->ExceptionClear(jni);
    return 1;
}

jclass hs_jni_find_class(JNIEnv *jni, const char *name) {
    jclass cls = (*jni)->FindClass(jni, name);
    return hs_jni_take_exception(jni) ? NULL : cls;
}

jmethodID hs_jni_find_method(JNIEnv *jni, jclass cls, const char *name, const char *sig) {
    if (cls == NULL) return NULL;
    jmethodID m = (*jni)->GetMethodID(jni, cls, name, sig);
    return hs_jni_take_exception(jni) ? NULL : m;
}

jobject hs_jni_call_static_object(JNIEnv *jni, const char *class_name, const char *name,
                                  const char *sig) {
    jclass cls = hs_jni_find_class(jni, class_name);
    if (cls == NULL) return NULL;
    jmethodID m = (*jni)->GetStaticMethodID(jni, cls, name, sig);
    if (hs_jni_take_exception(jni) || m == NULL) return NULL;
    jobject result = (*jni)->CallStaticObjectMethod(jni, cls, m);
    return hs_jni_take_exception(jni) ? NULL : result;
}

void hs_jni_copy_string(JNIEnv *jni, jstring s, char *buf, size_t len) {
    buf[0] = '\0';
    if (s == NULL) return;
    const char *utf = (*jni)->GetStringUTFChars(jni, s, NULL);
    if (hs_jni_take_exception(jni) || utf == NULL) return;
    snprintf(buf, len, "%s", utf);
    (*jni)->ReleaseStringUTFChars(jni, s, utf);
}

int hs_java_list_open(JNIEnv *jni, jobject list, hs_java_list *out) {
    jclass list_class = hs_jni_find_class(jni, "java/util/List");
    out->list = list;
    out->size = hs_jni_find_method(jni, list_class, "size", "()I");
    out->get = hs_jni_find_method(jni, list_class, "get", "(I)Ljava/lang/Object;");
    if (list_class != NULL) (*jni)->DeleteLocalRef(jni, list_class);
    return list != NULL && out->size != NULL && out->get != NULL ? 0 : -1;
}

int hs_java_list_size(JNIEnv *jni, const hs_java_list *l) {
    jint n = (*jni)->CallIntMethod(jni, l->list, l->size);
    return hs_jni_take_exception(jni) ? -1 : (int)n;
}

jobject hs_java_list_get(JNIEnv *jni, const hs_java_list *l, int i) {
    jobject element = (*jni)->CallObjectMethod(jni, l->list, l->get, (jint)i);
    return hs_jni_take_exception(jni) ? NULL : element;
}
