/* thread_labels.h: the "thread" label of a sample (threads=true): the JVM's side of
 * thread_ids.h, through JVMTI and JNI. */
#ifndef HS_THREAD_LABELS_H
#define HS_THREAD_LABELS_H

#include <jvmti.h>
#include <stdint.h>

#include "sampling/thread_ids.h"

/* Pseudo-names of threads without a name: virtual threads are unnamed unless the program
 * names them; a platform thread named "" is rare. */
#define HS_THREAD_NAME_UNNAMED "[unnamed thread]"
#define HS_THREAD_NAME_UNNAMED_VIRTUAL "[unnamed virtual thread]"

/* Hot path: the name id (thread_names.h) of the thread the allocation callback runs for:
 * `thread`, the callback's jthread (a virtual thread, not its carrier). */
uint32_t hs_thread_label(hs_thread_ids *ids, jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);

/* Frees ids (its weak refs are left to the JVM's exit). */
void hs_thread_labels_destroy(hs_thread_ids *ids);

#endif
