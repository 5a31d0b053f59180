/* method_infos.h: what the profile says about a method (names, source file, line table),
 * interned by content.
 *
 * Stack frames refer to a method by its hs_method_info, not by its jmethodID: a jmethodID
 * dies with its class, an info lives as long as the agent (it is never freed, so a frame
 * resolved while its class was loaded keeps its names after the class is unloaded). Equal
 * content gives the same info, so a class defined again and again (hidden classes, which
 * hs_stable_name names alike; a script engine's regenerated classes; a fresh loader per
 * request) adds no info after the first, and its stacks are the same stacks: the tables
 * stay flat however many classes a program churns through.
 *
 * A frame that cannot be resolved points at one of the pseudo-infos below, whose name says
 * why. Lock-free: an intern looks up the content's hash and copies the content into the
 * arena only when it is new; two threads interning the same new content at once may both
 * copy it (one copy wins the index, the other is used once). Pure C, no JVM. */
#ifndef HS_METHOD_INFOS_H
#define HS_METHOD_INFOS_H

#include <stdint.h>

#include "sampling/arena.h"
#include "sampling/jvm_names.h"

typedef struct {
    const char *name;        /* java.util.ArrayList.grow */
    const char *system_name; /* java/util/ArrayList.grow(I)[Ljava/lang/Object; */
    const char *filename;    /* java/util/ArrayList.java, "" when unknown */
    int32_t start_line;      /* first line of the method, 0 when unknown */
    uint32_t nlines;
    const hs_line_entry *lines; /* sorted by bci */
} hs_method_info;

/* Frames whose method found no room (the method table's window or the names budget
 * spent: memory= raises both) and frames the JVM could not name (a JVMTI error). */
#define HS_METHOD_TABLE_FULL_NAME "[method table full]"
#define HS_METHOD_UNRESOLVED_NAME "[method not resolved]"
extern const hs_method_info hs_method_table_full;
extern const hs_method_info hs_method_unresolved;

typedef struct hs_method_infos hs_method_infos;

/* Room for `capacity` distinct infos in the index; their strings and lines go to `arena`
 * (shared: its budget bounds them). NULL on ENOMEM. */
hs_method_infos *hs_method_infos_create(uint32_t capacity, hs_arena *arena);
void hs_method_infos_destroy(hs_method_infos *infos);

/* The interned info equal to *draft (whose strings and lines may live anywhere: they are
 * copied on first sight); NULL when the index or the arena has no room for a new one. */
const hs_method_info *hs_method_infos_intern(hs_method_infos *infos, const hs_method_info *draft);

/* Distinct infos interned (copies made by racing threads included). */
uint32_t hs_method_infos_count(const hs_method_infos *infos);

#endif
