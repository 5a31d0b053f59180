/* jvm_names.h: turning JVM type signatures into the names people read in a profile.
 *
 * Pure string work, no JVM: "[B" -> "byte[]", "Ljava/util/HashMap$Node;" ->
 * "java.util.HashMap$Node", and the Function fields pprof wants for a Java method
 * (see shared notes on Java frames). All functions write into caller buffers and
 * return the length they needed (like snprintf); the output is always NUL-terminated. */
#ifndef HS_JVM_NAMES_H
#define HS_JVM_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Field-descriptor signature of a class ("Ljava/lang/String;", "[[I", "I") ->
 * Java source name ("java.lang.String", "int[][]", "int"). Unknown forms are copied as is. */
size_t hs_class_name(const char *signature, char *out, size_t outlen);

/* Class signature -> internal (slashed) name without L...; : "java/util/ArrayList". */
size_t hs_class_internal_name(const char *signature, char *out, size_t outlen);

/* "java.util.ArrayList" + "grow" -> "java.util.ArrayList.grow" (pprof's Function.name). */
size_t hs_method_display_name(const char *class_signature, const char *method, char *out,
                              size_t outlen);

/* -> "java/util/ArrayList.grow(I)[Ljava/lang/Object;" (pprof's Function.system_name). */
size_t hs_method_system_name(const char *class_signature, const char *method,
                             const char *method_signature, char *out, size_t outlen);

/* Package path of the class + source file: ("Ljava/util/ArrayList;", "ArrayList.java") ->
 * "java/util/ArrayList.java". Only the last path component of the source file is used:
 * generated classes (BoundMethodHandle$Species_LL) carry their whole internal name there,
 * which must not get the package twice. With no source file: the class's internal name +
 * ".java" is NOT guessed; the result is "" (unknown). */
size_t hs_source_path(const char *class_signature, const char *source_file, char *out,
                      size_t outlen);

/* Makes a name the same in every JVM: drops hidden-class addresses and JDK 17's lambda
 * counters, wherever they occur (class signatures, dotted names, method signatures):
 *   "LFoo$$Lambda$14.0x0000000800c03000;"    -> "LFoo$$Lambda;"       (JDK 17)
 *   "Foo$$Lambda/0x0000712c3c00a000"         -> "Foo$$Lambda"         (JDK 25, Class.getName)
 *   "java.lang.invoke.LambdaForm$MH.0x00007f5658005000.invoke"
 *                                            -> "java.lang.invoke.LambdaForm$MH.invoke"
 * An address is '.' or '/', "0x", at least 4 hex digits, then the end or one of ";./[".
 * The counter is the digits after "$$Lambda$" (JDK 17 numbers lambda classes in the
 * order the JVM spins them up, which differs between runs). Other text is copied.
 * out may be name itself (the result is never longer). */
size_t hs_stable_name(const char *name, char *out, size_t outlen);

/* One row of a method's line-number table: code from bytecode index `bci` on belongs
 * to source line `line`. */
typedef struct {
    int32_t bci;
    int32_t line;
} hs_line_entry;

/* Sorts a line-number table by bci (JVMTI gives no order guarantee). */
void hs_line_table_sort(hs_line_entry *table, uint32_t n);
/* Line of bci in a table sorted by hs_line_table_sort: the row with the largest bci <= the
 * given one. 0 when unknown (no table, or bci before the first row, or bci < 0). */
int32_t hs_line_for_bci(const hs_line_entry *table, uint32_t n, int32_t bci);

/* A site's key from its stack, the name the report's rows and the growing sites share:
 * frames leaf first (names, lines: 0 unknown), n of them, and the allocated class:
 * "Frame.name:line → Class" for the first frame outside the JDK (the leaf frame when all
 * are in the JDK), "[no Java frames] → Class" without frames. */
void hs_site_key(const char *const *frames, const int64_t *lines, uint32_t n,
                 const char *class_name, char *out, size_t len);
/* Whether a frame name is the JDK's (java., javax., jdk., sun., com.sun.). */
bool hs_is_jdk_frame(const char *name);

#endif
