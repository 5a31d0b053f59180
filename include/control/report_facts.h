/* report_facts.h: the report (report.h) of the running agent: the facts its header and its
 * ± need (heap after the last GC, GC name and source, intervals, the rate cap and its mean
 * weight, the live table's thinning, the growing sites named by their keys), read from the
 * agent, then the report of a profile the snapshot built. For `top`, `dump,format=text`,
 * and any other sink that serves the report. */
#ifndef HS_REPORT_FACTS_H
#define HS_REPORT_FACTS_H

#include "control/agent.h"
#include "output/report.h"
#include "output/snapshot.h"
#include "base/text.h"

/* Appends the report of p (built with live_out = live) to out. 0, or -1 on ENOMEM. */
int hs_report_of_agent(hs_agent *agent, const hs_profile *p, const hs_snapshot_live *live,
                       const hs_report_options *o, hs_text *out);

#endif
