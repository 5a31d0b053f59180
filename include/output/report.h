/* report.h: the text report a person reads in a terminal (`top`, `dump,format=text`), and
 * the retention paths as text (`paths`).
 *
 * One table over a built profile (snapshot.h): one row per site, a site being the first
 * frame outside the JDK (java.*, javax.*, jdk.*, sun.*, com.sun.* skipped) and the
 * allocated class, "com.acme.Cache.put:88 → byte[]"; the profile's samples with the same
 * site add up. Columns: rank, in-use bytes ± one standard error, share of the heap used
 * after the last GC, allocated bytes, allocated per second over the profile's period,
 * mean age of what is in use, a mark for growth suspects, the site. Sizes are in KiB,
 * MiB, GiB (powers of 1024), as the header says. The text is plain (no colours), never
 * wider than `width` columns: the site column is cut in its middle with an ellipsis
 * (site_cut.h), keeping the method's name, the line number and the class; width 0 cuts
 * nothing.
 *
 * Pure C over hs_profile and the small hs_report_facts below (no JVM, no hs_agent), so
 * the HTTP endpoint can serve the same text. */
#ifndef HS_REPORT_H
#define HS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "live/inuse_basis.h"
#include "profile/profile.h"
#include "base/text.h"

#define HS_REPORT_ROWS_DEFAULT 20
#define HS_REPORT_ROWS_MAX 1000
#define HS_REPORT_WIDTH_DEFAULT 100
#define HS_REPORT_WIDTH_MIN 40
#define HS_REPORT_WIDTH_MAX 1000
#define HS_REPORT_WIDTH_UNLIMITED 0 /* width=0: no line is cut or wrapped (files, pipes) */

typedef enum { HS_RANK_INUSE = 0, HS_RANK_ALLOC, HS_RANK_GROWTH } hs_report_rank;

typedef struct {
    unsigned rows;       /* n= */
    hs_report_rank by;   /* by= */
    unsigned width;      /* width= */
    bool stacks;         /* stack=true: each site's whole stack under its row */
    bool by_class;       /* by=class: one row per allocated class, not per site */
    bool json;           /* json=true: the same rows as JSON (schema: heapsampler(1)) */
} hs_report_options;

void hs_report_options_defaults(hs_report_options *o);
/* "inuse", "alloc", "growth" */
const char *hs_report_rank_name(hs_report_rank by);

/* A growing site (growth.h), named by its key (hs_site_key, jvm_names.h). */
typedef struct {
    char key[512];
    double growth_bytes, growth_sigma; /* over the growth window; sigma: one standard error */
    uint32_t gcs;                      /* GCs the window spans */
} hs_report_suspect;

#define HS_REPORT_MAX_SUSPECTS 16

/* What the header says, and what the ± needs. */
typedef struct {
    int64_t now_nanos;              /* wall clock of the report */
    bool live;                      /* the profile has in-use values */
    hs_inuse_basis inuse_basis;     /* what they stand for (inuse_basis.h) */
    bool heap_known;                /* heap_used is a measured figure */
    uint64_t heap_used;             /* bytes used after the last GC */
    int64_t last_gc_nanos;          /* wall clock of the last GC's sweep; 0: no GC seen */
    uint32_t gc_count;              /* GCs seen */
    const char *gc_name, *heap_source;
    int64_t interval;               /* sampling interval (bytes) the estimates are scaled to */
    int64_t interval_now;           /* the interval sampling runs at now */
    const char *rate_cap;           /* "1000/s, 12 % of samples kept last second" or "off" */
    bool stopped;                   /* sampling stopped (`stop`): nothing tracked, no in-use */
    hs_report_suspect suspects[HS_REPORT_MAX_SUSPECTS];
    uint32_t nsuspects;
} hs_report_facts;

/* Appends the report of profile p (a snapshot: alloc_objects, alloc_space[, inuse_objects,
 * inuse_space]) to out. 0, or -1 on ENOMEM (out->failed set). */
int hs_report_write(const hs_profile *p, const hs_report_facts *facts,
                    const hs_report_options *opts, hs_text *out);

/* The retention paths profile (retention.h) as text: per site (string label "site"), each
 * reached object's chain from its GC root (first line) down to the object, one reference
 * per line, indented one step per line; then which of the site's objects were reached
 * (the profile's "site N: ..." comments). Appends to out; 0 or -1 (ENOMEM). */
int hs_report_paths(const hs_profile *paths, hs_text *out);

#endif
