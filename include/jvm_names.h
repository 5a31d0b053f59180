/* jvm_names.h: turning JVM type signatures into the names people read in a profile.
 *
 * Pure string work, no JVM: "[B" -> "byte[]", "Ljava/util/HashMap$Node;" ->
 * "java.util.HashMap$Node", and the Function fields pprof wants for a Java method
 * (see shared notes on Java frames). All functions write into caller buffers and
 * return the length they needed (like snprintf); the output is always NUL-terminated. */
#ifndef HS_JVM_NAMES_H
#define HS_JVM_NAMES_H

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
 * "java/util/ArrayList.java". With no source file: the class's internal name + ".java"
 * is NOT guessed; the result is "" (unknown). */
size_t hs_source_path(const char *class_signature, const char *source_file, char *out,
                      size_t outlen);

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

#endif
