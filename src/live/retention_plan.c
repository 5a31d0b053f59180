/* retention_plan.c: the pure decisions of the retention walk (see retention_plan.h). */
#include "live/retention_plan.h"

#include <jvmti.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/text.h"

bool hs_retention_root_transient(int kind) {
    return kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL || kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL ||
           kind == JVMTI_HEAP_REFERENCE_MONITOR;
}

hs_retention_pass hs_retention_next_pass(const hs_retention_pass_result *done) {
    if (done->targets_left == 0 || done->time_ended) return HS_PASS_DONE;
    switch (done->pass) {
    case HS_PASS_HELD_SHARED:
        if (!done->groups_cut) return HS_PASS_TRANSIENT;
        return done->cut_with_targets ? HS_PASS_HELD_TARGETED : HS_PASS_HELD;
    case HS_PASS_HELD_TARGETED: return done->groups_cut ? HS_PASS_HELD : HS_PASS_TRANSIENT;
    case HS_PASS_HELD: return HS_PASS_TRANSIENT;
    default: return HS_PASS_DONE;
    }
}

/* Measured on JDK 17 (G1, the shared 2-core machine under load): the tail of a pass was
 * 1080 ms for 20 million objects (4.13 GB), 220 ms for 4 million (0.96 GB), 183-223 ms for
 * 6 million (0.18 GB), 188-249 ms for 1.3 million (0.24 GB): a part that grows with the
 * objects and one that does not. On JDK 25: 4-20 ms. */
#define HEADER_RESTORE_FIXED_NS 150000000.0
#define HEADER_RESTORE_NS_PER_OBJECT 50.0
#define BITMAP_NS_PER_OBJECT 1.0
/* and a margin: the clock is read every 1024 callbacks (about 1 ms on JDK 25), the pause
 * begins before the safepoint is reached */
#define RESERVE_FLOOR_NS INT64_C(25000000)

int64_t hs_retention_reserve_ns(double heap_objects, bool header_marks, int64_t measured_tail_ns) {
    if (measured_tail_ns >= 0) return measured_tail_ns + measured_tail_ns / 4 + RESERVE_FLOOR_NS;
    double estimate = header_marks
                          ? HEADER_RESTORE_FIXED_NS + heap_objects * HEADER_RESTORE_NS_PER_OBJECT
                          : heap_objects * BITMAP_NS_PER_OBJECT;
    return (int64_t)estimate + RESERVE_FLOOR_NS;
}

int64_t hs_retention_walk_window(int64_t budget_ns, int64_t reserve_ns) {
    int64_t window = budget_ns - reserve_ns;
    return window >= budget_ns / 5 ? window : 0;
}

bool hs_retention_header_marks(const char *java_vm_version) {
    int feature = java_vm_version ? atoi(java_vm_version) : 0;
    return feature < 25;
}

/* --- figures ------------------------------------------------------------------------------ */

void hs_retention_figures_add_pass(hs_retention_figures *f, int64_t pause_ns, uint64_t objects,
                                   uint64_t bytes) {
    f->walks++;
    f->total_pause_ns += pause_ns;
    if (pause_ns > f->longest_pause_ns) f->longest_pause_ns = pause_ns;
    f->objects_visited += objects;
    f->bytes_visited += bytes;
}

double hs_retention_visited_fraction(const hs_retention_figures *f) {
    if (f->heap_used == 0) return -1;
    double fraction = (double)f->bytes_visited / (double)f->heap_used;
    return fraction < 1 ? fraction : 1;
}

/* In the report's units (KiB, MiB, GiB: powers of 1024), so that one answer never mixes
 * MB and MiB. */
static void put_bytes(hs_bounded *t, double bytes) {
    char size[32];
    hs_size_text(bytes, size, sizeof size);
    hs_bounded_printf(t, "%s", size);
}

static const char *end_text(hs_retention_end end) {
    switch (end) {
    case HS_WALK_ALL_REACHED: return "every object sought was reached";
    case HS_WALK_COMPLETE: return "the walk visited everything reachable from the roots";
    case HS_WALK_BUDGET: return "the budget ended the walk";
    case HS_WALK_NODE_LIMIT: return "the node limit (memory) ended the walk";
    case HS_WALK_TOO_SLOW:
        return "not walked further: on this JVM a walk stops the application for a fixed cost "
               "that grows with the heap, expected above the budget (ask for a larger budget=)";
    }
    return "";
}

size_t hs_retention_format_figures(const hs_retention_figures *f, char *buf, size_t len) {
    hs_bounded t = {buf, len, 0};
    if (len) buf[0] = '\0';
    uint32_t sites_reached = 0;
    for (uint32_t i = 0; i < f->nsites; i++) sites_reached += f->site[i].reached > 0;
    hs_bounded_printf(&t, "reached %u of %u objects (%u of %u sites", f->reached, f->targets, sites_reached,
        f->nsites);
    if (f->reached_transient)
        hs_bounded_printf(&t, "; %u only through a stack or JNI local", f->reached_transient);
    /* No "of N objects": the only count at hand is the sampled sites' estimate, which
     * leaves out what the samples do not explain (objects older than an attached agent,
     * the JVM's own): the bytes against the heap used are what says how much was seen. */
    hs_bounded_printf(&t, "); visited %.2f M objects, ", (double)f->objects_visited / 1e6);
    put_bytes(&t, (double)f->bytes_visited);
    double fraction = hs_retention_visited_fraction(f);
    if (fraction >= 0) {
        hs_bounded_printf(&t, " of ");
        put_bytes(&t, (double)f->heap_used);
        hs_bounded_printf(&t, " used (%.1f %%)", fraction * 100);
    } else {
        hs_bounded_printf(&t, " (heap used unknown)");
    }
    hs_bounded_printf(&t, "; %u walk%s, longest pause %.0f ms, %.0f ms in all (budget %lld ms per pause); %s",
        f->walks, f->walks == 1 ? "" : "s", (double)f->longest_pause_ns / 1e6,
        (double)f->total_pause_ns / 1e6, (long long)f->budget_ms, end_text(f->end));
    if (f->end == HS_WALK_TOO_SLOW) hs_bounded_printf(&t, " (%.0f ms expected)", (double)f->reserve_ns / 1e6);
    return t.need;
}

size_t hs_retention_format_site(const hs_retention_figures *f, uint32_t i, char *buf, size_t len) {
    hs_bounded t = {buf, len, 0};
    if (len) buf[0] = '\0';
    if (i >= f->nsites) return 0;
    const hs_retention_site_figures *s = &f->site[i];
    hs_bounded_printf(&t, "site %u: %s, ", i + 1, s->key[0] ? s->key : s->name);
    put_bytes(&t, s->bytes);
    hs_bounded_printf(&t, " in use: %u of %u reached", s->reached, s->targets);
    return t.need;
}
