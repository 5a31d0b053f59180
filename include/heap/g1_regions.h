/* g1_regions.h: G1's region size, and the humongous threshold it implies.
 *
 * The threshold is half the region size, as HotSpot's G1CollectedHeap::humongous_threshold_for
 * computes it (JDK 17 and 25). The live tracker (humongous.h) tracks objects above it by
 * identity; this module only finds the figure. */
#ifndef HS_G1_REGIONS_H
#define HS_G1_REGIONS_H

#include <jni.h>
#include <stdint.h>

#include "heap/gc_identify.h"
#include "heap/hotspot_tables.h"

/* The humongous threshold in bytes, or 0 when the collector is neither G1 nor unknown, or
 * the region size cannot be found. Tried in order of cost: the G1HeapRegionSize flag in the
 * flag table VMStructs describes, then VMStructs (HeapRegion::GrainBytes on JDK 17,
 * G1HeapRegion::GrainBytes on JDK 25: both plain reads), then the flag through
 * HotSpotDiagnosticMXBean (module jdk.management; loads the management classes). With the
 * collector unknown GrainBytes still tells: only G1 sets it, while processing its
 * arguments; with the other collectors it stays 0. Logs the figure and its source at info.
 * At VMInit (JNI allowed). */
uint64_t hs_g1_humongous_threshold(hs_gc_kind gc, const hs_hotspot_tables *tables, JNIEnv *jni);

/* Parses the value of the G1HeapRegionSize flag as getVMOption() prints it: plain decimal
 * digits (no sign, space or suffix) giving a power of two, as every G1 region size is.
 * Returns 0 and sets *region_size, or -1 (junk, empty, zero, not a power of two, overflow). */
int hs_g1_region_size_parse(const char *text, uint64_t *region_size);

#endif
