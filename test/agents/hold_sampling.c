/* hold_sampling.c: a JVMTI agent for the tests that holds heap sampling and does nothing
 * else, as another heap profiler (async-profiler's alloc mode, a vendor's agent) would:
 * `-agentpath:libhs_hold_sampling.so` before heapsampler's makes it find the solo
 * capability taken (jtreg/startup/LoadTwiceTest). Built beside the agent, never installed. */
#include <jvmti.h>
#include <stdio.h>
#include <string.h>

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)options;
    (void)reserved;
    jvmtiEnv *jvmti = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK || !jvmti) return JNI_ERR;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_sampled_object_alloc_events = 1;
    if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) return JNI_ERR;
    fprintf(stderr, "hold_sampling: holding heap sampling\n");
    return JNI_OK;
}
