/* site_cut.h: cutting a site's name to a column budget without losing what tells two
 * sites apart (the `top` report's site column and its stack lines).
 *
 * A site reads "com.acme.web.Cache.put:88 → byte[]": a frame (a qualified method name),
 * its line number, the allocated class. On a narrow terminal the middle of the frame's
 * qualified name goes first ("com.acme…Cache.put:88 → byte[]"); the method's own name, the
 * line number and the class stay whole, so two rows never read the same. Only when the
 * frame is down to HS_SITE_CUT_MIN_FRAME columns is the class cut too, in its middle (its
 * simple name is at the end, and stays), the frame then taking a third of what is left;
 * a budget too small even for that cuts the end. An ellipsis (U+2026) marks
 * every cut. Widths count code points, as the report's columns do. Pure C. */
#ifndef HS_SITE_CUT_H
#define HS_SITE_CUT_H

#include <stddef.h>

#include "base/text.h"

/* The fewest columns the frame's name is cut to before the class is cut. */
#define HS_SITE_CUT_MIN_FRAME 12
/* Then the fewest each of the frame and the class is cut to before the end is. */
#define HS_SITE_CUT_MIN_PART 6

/* Display columns of UTF-8 text: one per code point. */
size_t hs_display_width(const char *s);

/* The fewest columns that keep the site's line number and class whole (the frame cut to
 * HS_SITE_CUT_MIN_FRAME): what a table should leave its site column when it can. */
size_t hs_site_min_width(const char *site);

/* Appends `site` ("frame[:line][ → class]") to out in at most `columns` columns (0: the
 * whole of it, uncut). */
void hs_site_cut(hs_text *out, const char *site, size_t columns);

#endif
