/* tls_model.h: HS_TLS_FAST, the TLS model of the thread-locals the allocation callback reads.
 *
 * initial-exec makes such a read one load at a fixed offset from the thread pointer, where
 * the default model for a shared object calls __tls_get_addr. It needs the library's TLS in
 * the static TLS block: glibc keeps room there for libraries loaded later (the JVM dlopen()s
 * its agents), musl keeps none and refuses such a library at dlopen ("initial-exec TLS
 * resolves to dynamic definition"; test/platforms/musl_load.c). So: initial-exec with glibc,
 * the default model with any other libc. */
#ifndef HS_TLS_MODEL_H
#define HS_TLS_MODEL_H

#include <stdlib.h> /* any libc header: glibc's define __GLIBC__ */

#if defined(__GLIBC__)
#define HS_TLS_FAST __attribute__((tls_model("initial-exec")))
#else
#define HS_TLS_FAST
#endif

#endif
