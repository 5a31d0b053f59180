/* report.c: the terminal report of a profile, and the retention paths as text (see
 * report.h).
 *
 * The profile's samples are keyed by site (hs_site_key, jvm_names.h), sorted by key and merged:
 * one row per site with its sums. The ± of a site's in-use bytes is one standard error of
 * the Horvitz-Thompson estimate: each tracked live sample of an object of s bytes stands
 * for W objects (its own weight: unbias scale, rate cap, thinning), so the in-use estimate
 * E = s x sum W has the exact variance estimate s^2 x sum W (W - 1) over the site's
 * samples (estimate.h), which the snapshot carries per sample (hs_sample.inuse_var); the
 * rows add them up.
 * Columns are as wide as their widest cell; when the table would be wider than width=,
 * the least important columns go first, and the site column takes what is left, cut in
 * its middle (site_cut.h). Width 0 (a file, a pipe) cuts nothing. */
#include "output/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/json.h"
#include "live/live_scale.h"
#include "output/site_cut.h"
#include "sampling/jvm_names.h"

#define KEY_MAX 512
/* Columns are dropped until the site column gets the widest site, or at least this. */
#define SITE_MIN_WIDTH 32
#define SITE_MAX_NEED 64
#define ELLIPSIS "\xe2\x80\xa6"
#define ARROW "\xe2\x86\x92"

/* --- names -------------------------------------------------------------------------- */

void hs_report_options_defaults(hs_report_options *o) {
    o->rows = HS_REPORT_ROWS_DEFAULT;
    o->by = HS_RANK_INUSE;
    o->width = HS_REPORT_WIDTH_DEFAULT;
    o->stacks = false;
    o->by_class = false;
    o->json = false;
}

const char *hs_report_rank_name(hs_report_rank by) {
    return by == HS_RANK_ALLOC ? "alloc" : by == HS_RANK_GROWTH ? "growth" : "inuse";
}

/* --- figures ------------------------------------------------------------------------ */

static void duration_text(double seconds, char *out, size_t len) {
    if (seconds < 0) snprintf(out, len, "-");
    else if (seconds < 90) snprintf(out, len, "%.0fs", seconds);
    else if (seconds < 90 * 60) snprintf(out, len, "%.0fm", seconds / 60);
    else if (seconds < 48 * 3600) snprintf(out, len, "%.1fh", seconds / 3600);
    else snprintf(out, len, "%.1fd", seconds / 86400);
}

/* Appends s padded to width columns, right-aligned or left-aligned. */
static void append_padded(hs_text *out, const char *s, size_t width, bool right) {
    size_t w = hs_display_width(s);
    size_t pad = w < width ? width - w : 0;
    if (right) hs_text_repeat(out, ' ', pad);
    hs_text_puts(out, s);
    if (!right) hs_text_repeat(out, ' ', pad);
}

/* Appends words of text, wrapped at width columns (the header: the table never wraps). */
static void append_wrapped(hs_text *out, const char *text, size_t width) {
    size_t column = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ");
        char word[1024];
        snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p);
        size_t w = hs_display_width(word);
        if (column > 0 && width != HS_REPORT_WIDTH_UNLIMITED && column + 1 + w > width) {
            hs_text_puts(out, "\n  ");
            column = 2;
        } else if (column > 0) {
            hs_text_puts(out, " ");
            column++;
        }
        hs_text_puts(out, word);
        column += w;
        p += n;
        while (*p == ' ') p++;
    }
    hs_text_puts(out, "\n");
}

/* --- sites -------------------------------------------------------------------------- */

typedef struct {
    char *key; /* malloc'd */
    const hs_sample *sample;
} keyed_sample;

typedef struct {
    const char *key;
    double inuse, inuse_var, alloc;
    double inuse_objects, alloc_objects;
    double aged_bytes, age_weighted; /* in-use bytes with an age, and bytes x seconds */
    const hs_sample *stack;          /* its largest sample, shown with stack=true */
    double stack_bytes;
    uint32_t nstacks;
    const hs_report_suspect *suspect;
    bool pseudo;                     /* a pseudo-site ([heap not attributed ...]) */
} site_row;

typedef struct {
    const hs_profile *p;
    const hs_report_facts *facts;
    uint32_t alloc_space, inuse_space; /* value indexes; nsample_types when absent */
    uint32_t alloc_objects, inuse_objects;
    bool by_class;
    hs_report_rank by; /* what the rows are ranked by: its column is never dropped */
} report_ctx;

static const char *function_name(const hs_profile *p, uint32_t location) {
    const char *name = p->functions[p->locations[location].function].name;
    return name && *name ? name : "[unknown]";
}

#define MAX_KEY_FRAMES 2048

static void sample_key(const hs_profile *p, const hs_sample *s, bool by_class, char *out,
                       size_t len) {
    if (by_class && s->depth > 1) { /* the allocated class is the leaf "frame" */
        snprintf(out, len, "%s", function_name(p, s->locations[0]));
        return;
    }
    if (s->depth == 0) {
        snprintf(out, len, "[unknown]");
        return;
    }
    if (s->depth == 1) { /* a pseudo-site: [heap not attributed to samples], ... */
        snprintf(out, len, "%s", function_name(p, s->locations[0]));
        return;
    }
    const char *frames[MAX_KEY_FRAMES];
    int64_t lines[MAX_KEY_FRAMES];
    uint32_t n = 0;
    for (uint32_t i = 1; i < s->depth && n < MAX_KEY_FRAMES; i++, n++) {
        frames[n] = function_name(p, s->locations[i]);
        lines[n] = p->locations[s->locations[i]].line;
    }
    hs_site_key(frames, lines, n, function_name(p, s->locations[0]), out, len);
}

static int compare_keys(const void *a, const void *b) {
    return strcmp(((const keyed_sample *)a)->key, ((const keyed_sample *)b)->key);
}

static double value_of(const hs_sample *s, uint32_t index, uint32_t nvalues) {
    return index < nvalues ? (double)s->values[index] : 0;
}

static void add_to_row(const report_ctx *c, site_row *r, const hs_sample *s) {
    uint32_t nv = c->p->nsample_types;
    double inuse = value_of(s, c->inuse_space, nv), alloc = value_of(s, c->alloc_space, nv);
    r->inuse += inuse;
    r->alloc += alloc;
    r->inuse_objects += value_of(s, c->inuse_objects, nv);
    r->alloc_objects += value_of(s, c->alloc_objects, nv);
    if (inuse > 0) r->inuse_var += s->inuse_var;
    if (inuse > 0 && s->ages.age_seconds >= 0) {
        r->aged_bytes += inuse;
        r->age_weighted += inuse * (double)s->ages.age_seconds;
    }
    double weight = inuse > 0 ? inuse : alloc;
    if (!r->stack || weight > r->stack_bytes) {
        if (r->stack && (r->stack->depth != s->depth ||
                         memcmp(r->stack->locations, s->locations, s->depth * sizeof *s->locations)))
            r->nstacks++;
        r->stack = s;
        r->stack_bytes = weight;
    }
}

static const hs_report_suspect *find_suspect(const hs_report_facts *f, const char *key) {
    for (uint32_t i = 0; i < f->nsuspects; i++)
        if (strcmp(f->suspects[i].key, key) == 0) return &f->suspects[i];
    return NULL;
}

/* The sites of the profile, merged by key. keyed is sorted by key; rows point into it. */
static uint32_t build_rows(const report_ctx *c, keyed_sample *keyed, site_row *rows) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->p->nsamples; i++) {
        if (i == 0 || strcmp(keyed[i].key, keyed[i - 1].key) != 0) {
            memset(&rows[n], 0, sizeof rows[n]);
            rows[n].key = keyed[i].key;
            rows[n].nstacks = 1;
            rows[n].suspect = c->by_class ? NULL : find_suspect(c->facts, keyed[i].key);
            rows[n].pseudo = keyed[i].sample->depth <= 1;
            n++;
        }
        add_to_row(c, &rows[n - 1], keyed[i].sample);
    }
    return n;
}

static int compare_rows(const void *a, const void *b, void *by) {
    const site_row *x = a, *y = b;
    hs_report_rank sort_by = *(const hs_report_rank *)by;
    if (x->pseudo != y->pseudo) return x->pseudo ? 1 : -1; /* pseudo-sites are not ranked */
    if (sort_by == HS_RANK_GROWTH && (x->suspect != NULL) != (y->suspect != NULL))
        return x->suspect ? -1 : 1;
    if (sort_by == HS_RANK_GROWTH && x->suspect && y->suspect &&
        x->suspect->growth_bytes != y->suspect->growth_bytes)
        return x->suspect->growth_bytes > y->suspect->growth_bytes ? -1 : 1;
    double vx = sort_by == HS_RANK_ALLOC ? x->alloc : x->inuse;
    double vy = sort_by == HS_RANK_ALLOC ? y->alloc : y->inuse;
    if (vx != vy) return vx > vy ? -1 : 1;
    if (x->alloc != y->alloc) return x->alloc > y->alloc ? -1 : 1; /* no GC yet: all 0 in use */
    return strcmp(x->key, y->key);
}

/* --- the table ---------------------------------------------------------------------- */

enum { COL_RANK, COL_OBJECTS, COL_INUSE, COL_SIGMA, COL_HEAP, COL_ALLOC, COL_RATE, COL_AGE,
       COL_GROWTH, NCOLS };

static const char *const titles[NCOLS] = {"#", "objects", "in use", "±", "heap", "allocated",
                                          "alloc/s", "age", "growth"};
/* Dropped first when the width is short: lowest priority first. */
static const int drop_order[NCOLS - 2] = {COL_RATE, COL_AGE, COL_OBJECTS, COL_SIGMA, COL_GROWTH,
                                          COL_HEAP, COL_ALLOC};

/* An estimated count: "812", "12.3 k", "4.10 M". */
static void count_text(double n, char *out, size_t len) {
    if (n < 9999.5) snprintf(out, len, "%.0f", n);
    else if (n < 999.5e3) snprintf(out, len, n < 99.95e3 ? "%.1f k" : "%.0f k", n / 1e3);
    else snprintf(out, len, n < 9.995e6 ? "%.2f M" : n < 99.95e6 ? "%.1f M" : "%.0f M", n / 1e6);
}

typedef struct {
    char cell[NCOLS][24];
} row_cells;

/* rank 0: an unranked row (the unattributed rest of a class histogram), "-". */
static void fill_cells(const report_ctx *c, const site_row *r, unsigned rank, row_cells *out) {
    const hs_report_facts *f = c->facts;
    double seconds = (double)c->p->duration_nanos / 1e9;
    if (rank) snprintf(out->cell[COL_RANK], sizeof out->cell[0], "%u", rank);
    else snprintf(out->cell[COL_RANK], sizeof out->cell[0], "-");
    if (r->pseudo) snprintf(out->cell[COL_OBJECTS], sizeof out->cell[0], "-");
    else count_text(f->live ? r->inuse_objects : r->alloc_objects, out->cell[COL_OBJECTS],
                    sizeof out->cell[0]);
    hs_size_text(r->inuse, out->cell[COL_INUSE], sizeof out->cell[0]);
    char sigma[20];
    hs_size_text(sqrt(r->inuse_var), sigma, sizeof sigma);
    if (r->inuse > 0) snprintf(out->cell[COL_SIGMA], sizeof out->cell[0], "±%s", sigma);
    else snprintf(out->cell[COL_SIGMA], sizeof out->cell[0], "-");
    if (f->heap_known && f->heap_used > 0)
        snprintf(out->cell[COL_HEAP], sizeof out->cell[0], "%.1f%%",
                 100 * r->inuse / (double)f->heap_used);
    else
        snprintf(out->cell[COL_HEAP], sizeof out->cell[0], "-");
    hs_size_text(r->alloc, out->cell[COL_ALLOC], sizeof out->cell[0]);
    char rate[20];
    hs_size_text(seconds > 0 ? r->alloc / seconds : 0, rate, sizeof rate);
    snprintf(out->cell[COL_RATE], sizeof out->cell[0], "%s/s", rate);
    duration_text(r->aged_bytes > 0 ? r->age_weighted / r->aged_bytes : -1, out->cell[COL_AGE],
                  sizeof out->cell[0]);
    if (r->suspect) {
        char g[20];
        hs_size_text(r->suspect->growth_bytes, g, sizeof g);
        snprintf(out->cell[COL_GROWTH], sizeof out->cell[0], "+%s", g);
    } else {
        snprintf(out->cell[COL_GROWTH], sizeof out->cell[0], "-");
    }
}

typedef struct {
    bool shown[NCOLS];
    size_t width[NCOLS];
    size_t site_width;
} layout;

static size_t fixed_width(const layout *l) {
    size_t w = 0;
    for (int i = 0; i < NCOLS; i++)
        if (l->shown[i]) w += l->width[i] + 2;
    return w;
}

/* The column the rows are ranked by (a ranking whose key the reader cannot see reads as
 * arbitrary: `top --by growth` with no growth column). */
static int ranked_column(hs_report_rank by) {
    return by == HS_RANK_GROWTH ? COL_GROWTH : by == HS_RANK_ALLOC ? COL_ALLOC : COL_INUSE;
}

static void plan_layout(const report_ctx *c, const row_cells *cells, const site_row *const *rows,
                        uint32_t n, unsigned width, layout *l) {
    /* The site column asks for its widest site up to SITE_MIN_WIDTH, and more where a site
     * needs it to keep its line number and class whole (site_cut.h), up to SITE_MAX_NEED:
     * columns are dropped for that before a site's line or class is cut. */
    size_t site_need = 0;
    for (uint32_t r = 0; r < n; r++) {
        size_t w = hs_display_width(rows[r]->key);
        size_t keep = hs_site_min_width(rows[r]->key);
        size_t need = w < SITE_MIN_WIDTH ? w : keep > SITE_MIN_WIDTH ? keep : SITE_MIN_WIDTH;
        if (need > site_need) site_need = need;
    }
    if (site_need > SITE_MAX_NEED) site_need = SITE_MAX_NEED;
    for (int i = 0; i < NCOLS; i++) {
        l->shown[i] = true;
        l->width[i] = hs_display_width(titles[i]);
        for (uint32_t r = 0; r < n; r++) {
            size_t w = hs_display_width(cells[r].cell[i]);
            if (w > l->width[i]) l->width[i] = w;
        }
    }
    if (!c->facts->live) /* no in-use values: no in-use columns */
        l->shown[COL_INUSE] = l->shown[COL_SIGMA] = l->shown[COL_HEAP] = l->shown[COL_AGE] =
            l->shown[COL_GROWTH] = false;
    l->shown[COL_OBJECTS] = c->by_class;     /* a class histogram counts objects */
    if (c->by_class) l->shown[COL_GROWTH] = false; /* growth is judged per site */
    if (width == HS_REPORT_WIDTH_UNLIMITED) { /* a file, a pipe: every column, nothing cut */
        l->site_width = 0;
        return;
    }
    for (size_t d = 0; d < sizeof drop_order / sizeof drop_order[0] &&
                       fixed_width(l) + site_need > width; d++)
        if (drop_order[d] != ranked_column(c->by)) l->shown[drop_order[d]] = false;
    size_t fixed = fixed_width(l);
    l->site_width = width > fixed ? width - fixed : 1;
}

static void append_row(hs_text *out, const layout *l, const char *const *cells, const char *site) {
    for (int i = 0; i < NCOLS; i++) {
        if (!l->shown[i]) continue;
        append_padded(out, cells[i], l->width[i], true);
        hs_text_puts(out, "  ");
    }
    hs_site_cut(out, site, l->site_width);
    hs_text_puts(out, "\n");
}

static void append_stack(hs_text *out, const report_ctx *c, const site_row *r, size_t width) {
    const hs_sample *s = r->stack;
    char line[1200];
    static const char at[] = "      at ";
    size_t frame_width = width == 0 ? 0 : width > sizeof at ? width - (sizeof at - 1) : 1;
    for (uint32_t i = 1; i < s->depth; i++) {
        const hs_location *loc = &c->p->locations[s->locations[i]];
        if (loc->line > 0)
            snprintf(line, sizeof line, "%s:%lld", function_name(c->p, s->locations[i]),
                     (long long)loc->line);
        else
            snprintf(line, sizeof line, "%s", function_name(c->p, s->locations[i]));
        hs_text_puts(out, at);
        hs_site_cut(out, line, frame_width);
        hs_text_puts(out, "\n");
    }
    if (r->nstacks > 1)
        hs_text_printf(out, "      (the largest of %u stacks of this site)\n", r->nstacks);
}

/* --- the header --------------------------------------------------------------------- */

static void append_header(hs_text *out, const report_ctx *c, const hs_report_options *o,
                          hs_report_rank by) {
    const hs_report_facts *f = c->facts;
    size_t width = o->width;
    char line[1024], a[32], b[32], when[40];
    time_t now = (time_t)(f->now_nanos / 1000000000);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm))
        snprintf(when, sizeof when, "?");
    snprintf(line, sizeof line, "heapsampler %s: %s by %s, at %s", HEAPSAMPLER_VERSION,
             c->by_class ? "allocated classes" : "sites",
             by == HS_RANK_ALLOC ? "allocated bytes"
                      : by == HS_RANK_GROWTH ? "growth (growing sites first, then in-use bytes)"
                                             : "in-use bytes", when);
    append_wrapped(out, line, width);
    if (f->live && f->last_gc_nanos > 0) {
        hs_size_text((double)f->heap_used, a, sizeof a);
        duration_text((double)(f->now_nanos - f->last_gc_nanos) / 1e9, b, sizeof b);
        snprintf(line, sizeof line, "heap: %s used after the last GC (%s ago, %u GCs seen; %s, "
                                    "figure from %s)",
                 f->heap_known ? a : "unknown", b, f->gc_count, f->gc_name ? f->gc_name : "GC ?",
                 f->heap_source ? f->heap_source : "none");
    } else if (f->live) { /* no GC: what in use means then, and why */
        char note[512];
        hs_inuse_basis_note(f->inuse_basis, f->gc_name, note, sizeof note);
        snprintf(line, sizeof line, "heap: %s%s", note[0] ? note : "no GC seen yet",
                 f->inuse_basis == HS_INUSE_NEVER_COLLECTED ? ""
                                                            : "; sites follow allocated bytes until then");
    } else if (f->stopped) {
        snprintf(line, sizeof line, "sampling is stopped (heapsampler stop): nothing is tracked, "
                                    "so no site shows bytes in use, and allocated is what was "
                                    "sampled before the stop; heapsampler start turns it on again");
    } else {
        snprintf(line, sizeof line, "heap: live tracking is off (live=false): allocation only");
    }
    append_wrapped(out, line, width);
    if (f->live && f->inuse_basis == HS_INUSE_NEVER_COLLECTED)
        append_wrapped(out, "in use: estimated objects allocated since the agent started (above); "
                            "± is one standard error of the sampling estimate; age = mean age of "
                            "what is in use", width);
    else if (f->live)
        append_wrapped(out, "in use: estimated objects alive as of the last GC; ± is one standard "
                            "error of the sampling estimate; heap = in use / heap used after the "
                            "last GC; age = mean age of what is in use", width);
    duration_text((double)c->p->duration_nanos / 1e9, a, sizeof a);
    snprintf(line, sizeof line, "allocated: since the agent started (%s ago); alloc/s = allocated "
                                "over those %.0f s", a, (double)c->p->duration_nanos / 1e9);
    append_wrapped(out, line, width);
    hs_size_text((double)f->interval, a, sizeof a);
    hs_size_text((double)f->interval_now, b, sizeof b);
    if (f->interval_now != f->interval)
        snprintf(line, sizeof line, "sampling: one sample per %s allocated on average (now %s); "
                                    "rate cap: %s", a, b, f->rate_cap ? f->rate_cap : "off");
    else
        snprintf(line, sizeof line, "sampling: one sample per %s allocated on average; rate cap: %s",
                 a, f->rate_cap ? f->rate_cap : "off");
    append_wrapped(out, line, width);
    if (f->live && f->nsuspects > 0)
        snprintf(line, sizeof line, "growth: how much a site's in-use bytes grew over the last %u "
                                    "GCs, shown when more than 4 standard errors (- : not growing)",
                 f->suspects[0].gcs);
    else if (f->live && f->gc_count == 0)
        snprintf(line, sizeof line, "growth: judged at GCs, and none has run");
    else if (f->live)
        snprintf(line, sizeof line, "growth: no site's in-use bytes grew by more than 4 standard "
                                    "errors over the last GCs");
    if (f->live && !c->by_class) append_wrapped(out, line, width); /* growth is per site */
    if (c->by_class)
        append_wrapped(out, "class: every site allocating it together (like GC.class_histogram, "
                            "but of the sampled allocations); objects: estimated count; the last "
                            "row is the heap the samples do not explain; sizes in KiB, MiB, GiB "
                            "(powers of 1024)", width);
    else
        append_wrapped(out, "site: the first frame outside the JDK " ARROW " the allocated "
                            "class; sizes in KiB, MiB, GiB (powers of 1024)", width);
}

/* --- the whole ---------------------------------------------------------------------- */

static void append_footer(hs_text *out, const report_ctx *c, const site_row *rows, uint32_t n,
                          uint32_t shown, size_t width) {
    double inuse = 0, alloc = 0, pseudo = 0, total_inuse = 0, total_alloc = 0;
    uint32_t sites = 0;
    for (uint32_t i = 0; i < n; i++) {
        total_inuse += rows[i].inuse;
        total_alloc += rows[i].alloc;
        if (rows[i].pseudo) {
            pseudo += rows[i].inuse;
            continue;
        }
        sites++;
        if (i < shown) {
            inuse += rows[i].inuse;
            alloc += rows[i].alloc;
        }
    }
    char a[32], b[32], line[512];
    hs_size_text(c->facts->live ? inuse : alloc, a, sizeof a);
    hs_size_text(c->facts->live ? total_inuse : total_alloc, b, sizeof b);
    snprintf(line, sizeof line, "%u of %u %s shown: %s of %s %s", shown, sites,
             c->by_class ? "classes" : "sites", a, b, c->facts->live ? "in use" : "allocated");
    append_wrapped(out, line, width);
    if (pseudo > 0) {
        hs_size_text(pseudo, a, sizeof a);
        snprintf(line, sizeof line, "%s of the heap is not attributed to sampled sites (%s)", a,
                 HS_LIVE_RESIDUAL_NAME);
        append_wrapped(out, line, width);
    }
}

static int write_table(hs_text *out, const report_ctx *c, site_row *rows, uint32_t n,
                       const hs_report_options *o) {
    uint32_t ranked = 0;
    while (ranked < n && !rows[ranked].pseudo) ranked++;
    uint32_t shown = ranked < o->rows ? ranked : o->rows;
    /* a class histogram ends with the rest (the heap the samples do not explain), unranked */
    uint32_t rest = c->by_class ? n - ranked : 0;
    row_cells *cells = calloc(shown + rest + 1, sizeof *cells);
    const site_row **list = calloc(shown + rest + 1, sizeof *list);
    if (!cells || !list) {
        free(cells);
        free(list);
        return -1;
    }
    for (uint32_t i = 0; i < shown + rest; i++) {
        list[i] = i < shown ? &rows[i] : &rows[ranked + i - shown];
        fill_cells(c, list[i], i < shown ? i + 1 : 0, &cells[i]);
    }
    layout l;
    plan_layout(c, cells, list, shown + rest, o->width, &l);
    hs_text_puts(out, "\n");
    append_row(out, &l, titles, c->by_class ? "class" : "site");
    for (uint32_t i = 0; i < shown + rest; i++) {
        const site_row *r = list[i];
        const char *ptrs[NCOLS];
        for (int k = 0; k < NCOLS; k++) ptrs[k] = cells[i].cell[k];
        append_row(out, &l, ptrs, r->key);
        if (o->stacks && !c->by_class && i < shown) append_stack(out, c, r, o->width);
    }
    free(cells);
    free(list);
    hs_text_puts(out, "\n");
    append_footer(out, c, rows, n, shown, o->width);
    return 0;
}

/* --- the same as JSON (json=true; the schema is in heapsampler(1)) ------------------- */

static void json_row(hs_json *w, const report_ctx *c, const site_row *r, unsigned rank) {
    const hs_report_facts *f = c->facts;
    double seconds = (double)c->p->duration_nanos / 1e9;
    hs_json_object(w, NULL);
    if (rank) hs_json_int(w, "rank", rank);
    else hs_json_null(w, "rank");
    hs_json_str(w, "name", r->key);
    hs_json_bool(w, "attributed", !r->pseudo);
    if (f->live) {
        hs_json_num(w, "inuse_bytes", r->inuse);
        hs_json_num(w, "inuse_stderr_bytes", sqrt(r->inuse_var));
        hs_json_num(w, "inuse_objects", r->inuse_objects);
        if (f->heap_known && f->heap_used > 0) hs_json_num(w, "heap_fraction", r->inuse / (double)f->heap_used);
        else hs_json_null(w, "heap_fraction");
        if (r->aged_bytes > 0) hs_json_num(w, "age_seconds", r->age_weighted / r->aged_bytes);
        else hs_json_null(w, "age_seconds");
    }
    hs_json_num(w, "alloc_bytes", r->alloc);
    hs_json_num(w, "alloc_objects", r->alloc_objects);
    hs_json_num(w, "alloc_bytes_per_second", seconds > 0 ? r->alloc / seconds : 0);
    if (r->suspect) hs_json_num(w, "growth_bytes", r->suspect->growth_bytes);
    else hs_json_null(w, "growth_bytes");
    hs_json_end(w);
}

static void json_facts(hs_json *w, const report_ctx *c, const hs_report_options *o,
                       hs_report_rank by) {
    const hs_report_facts *f = c->facts;
    hs_json_str(w, "version", HEAPSAMPLER_VERSION);
    hs_json_num(w, "time_seconds", (double)f->now_nanos / 1e9);
    hs_json_str(w, "rows_are", c->by_class ? "classes" : "sites");
    hs_json_str(w, "ranked_by", hs_report_rank_name(by));
    hs_json_str(w, "sampling", f->stopped ? "stopped" : "running");
    hs_json_bool(w, "live", f->live);
    hs_json_object(w, "heap");
    if (f->heap_known && f->last_gc_nanos > 0) hs_json_num(w, "used_bytes", (double)f->heap_used);
    else hs_json_null(w, "used_bytes");
    if (f->last_gc_nanos > 0) hs_json_num(w, "last_gc_seconds_ago", (double)(f->now_nanos - f->last_gc_nanos) / 1e9);
    else hs_json_null(w, "last_gc_seconds_ago");
    hs_json_int(w, "gcs", f->gc_count);
    hs_json_str(w, "collector", f->gc_name);
    hs_json_str(w, "source", f->heap_source);
    hs_json_end(w);
    hs_json_num(w, "duration_seconds", (double)c->p->duration_nanos / 1e9);
    hs_json_int(w, "interval_bytes", f->interval);
    hs_json_int(w, "interval_now_bytes", f->interval_now);
    hs_json_str(w, "rate_cap", f->rate_cap ? f->rate_cap : "off");
    (void)o;
}

static int write_json(hs_text *out, const report_ctx *c, site_row *rows, uint32_t n,
                      const hs_report_options *o, hs_report_rank by) {
    hs_json w;
    hs_json_begin(&w, out);
    hs_json_object(&w, NULL);
    json_facts(&w, c, o, by);
    uint32_t ranked = 0;
    while (ranked < n && !rows[ranked].pseudo) ranked++;
    uint32_t shown = ranked < o->rows ? ranked : o->rows;
    double inuse = 0, alloc = 0, unattributed = 0;
    hs_json_array(&w, "rows");
    for (uint32_t i = 0; i < shown; i++) json_row(&w, c, &rows[i], i + 1);
    for (uint32_t i = ranked; i < n; i++) json_row(&w, c, &rows[i], 0); /* the unattributed */
    hs_json_end(&w);
    for (uint32_t i = 0; i < n; i++) {
        if (rows[i].pseudo) unattributed += rows[i].inuse;
        else inuse += rows[i].inuse;
        alloc += rows[i].alloc;
    }
    hs_json_int(&w, "rows_shown", shown);
    hs_json_int(&w, "rows_total", ranked);
    if (c->facts->live) {
        hs_json_num(&w, "inuse_bytes_attributed", inuse);
        hs_json_num(&w, "inuse_bytes_unattributed", unattributed);
    }
    hs_json_num(&w, "alloc_bytes", alloc);
    hs_json_end(&w);
    hs_text_puts(out, "\n");
    return 0;
}

int hs_report_write(const hs_profile *p, const hs_report_facts *facts,
                    const hs_report_options *opts, hs_text *out) {
    hs_report_facts shown = *facts;
    if (shown.stopped) shown.live = false; /* the tracked objects were released: no in-use */
    facts = &shown;
    report_ctx c = {.p = p, .facts = facts,
                    .alloc_space = hs_profile_sample_type_index(p, "alloc_space"),
                    .inuse_space = hs_profile_sample_type_index(p, "inuse_space"),
                    .alloc_objects = hs_profile_sample_type_index(p, "alloc_objects"),
                    .inuse_objects = hs_profile_sample_type_index(p, "inuse_objects"),
                    .by_class = opts->by_class};
    hs_report_rank by = opts->by;
    if (!facts->live && by != HS_RANK_ALLOC) by = HS_RANK_ALLOC; /* nothing else to rank by */
    c.by = by;
    if (!opts->json) append_header(out, &c, opts, by);
    if (p->nsamples == 0 && opts->json) return write_json(out, &c, NULL, 0, opts, by);
    if (p->nsamples == 0) {
        hs_text_puts(out, "\nno samples yet: nothing allocated since the agent started has been "
                          "sampled\n");
        return out->failed ? -1 : 0;
    }
    keyed_sample *keyed = calloc(p->nsamples, sizeof *keyed);
    site_row *rows = malloc(p->nsamples * sizeof *rows);
    bool ok = keyed && rows;
    for (uint32_t i = 0; ok && i < p->nsamples; i++) {
        char key[KEY_MAX];
        sample_key(p, &p->samples[i], opts->by_class, key, sizeof key);
        keyed[i].sample = &p->samples[i];
        ok = (keyed[i].key = strdup(key)) != NULL;
    }
    int rc = -1;
    if (ok) {
        qsort(keyed, p->nsamples, sizeof *keyed, compare_keys);
        uint32_t n = build_rows(&c, keyed, rows);
        qsort_r(rows, n, sizeof *rows, compare_rows, &by);
        rc = opts->json ? write_json(out, &c, rows, n, opts, by) : write_table(out, &c, rows, n, opts);
    }
    for (uint32_t i = 0; keyed && i < p->nsamples; i++) free(keyed[i].key);
    free(keyed);
    free(rows);
    return rc != 0 || out->failed ? -1 : 0;
}

/* --- retention paths as text -------------------------------------------------------- */

#define PATH_INDENT_MAX 24 /* deeper chains stay at this indentation */

static const char *sample_label(const hs_sample *s, const char *key) {
    return s->label_key && strcmp(s->label_key, key) == 0 ? s->label_value : NULL;
}

/* Whether two chains read the same, frame by frame. */
static bool same_chain(const hs_profile *p, const hs_sample *a, const hs_sample *b) {
    if (a->depth != b->depth) return false;
    for (uint32_t i = 0; i < a->depth; i++)
        if (a->locations[i] != b->locations[i] &&
            strcmp(function_name(p, a->locations[i]), function_name(p, b->locations[i])) != 0)
            return false;
    return true;
}

/* One chain, root first, for `count` objects whose chains read the same (folded), holding
 * `bytes` in use between them. */
static void append_chain(hs_text *out, const hs_profile *p, const hs_sample *s, uint32_t count,
                         double bytes, bool has_bytes) {
    if (count > 1) hs_text_printf(out, "  path (the same for %u objects):\n", count);
    else hs_text_puts(out, "  path:\n");
    uint32_t level = 0;
    for (uint32_t i = s->depth; i-- > 0; level++) { /* root first */
        hs_text_repeat(out, ' ', 4 + 2 * (level < PATH_INDENT_MAX ? level : PATH_INDENT_MAX));
        hs_text_puts(out, function_name(p, s->locations[i]));
        if (i == 0 && has_bytes) {
            char size[32];
            hs_size_text(bytes, size, sizeof size);
            hs_text_printf(out, count > 1 ? "   (the objects; they stand for %s in use)"
                                          : "   (the object; stands for %s in use)", size);
        }
        hs_text_puts(out, "\n");
    }
}

/* The chains of the samples `in` selects, identical ones folded into one with a count. */
static void append_chains(hs_text *out, const hs_profile *paths, uint32_t inuse_space,
                          bool (*in)(const hs_profile *, const hs_sample *, const void *),
                          const void *arg) {
    bool *done = calloc(paths->nsamples ? paths->nsamples : 1, sizeof *done);
    if (!done) {
        out->failed = 1;
        return;
    }
    bool has_bytes = inuse_space < paths->nsample_types;
    for (uint32_t i = 0; i < paths->nsamples; i++) {
        const hs_sample *s = &paths->samples[i];
        if (done[i] || !in(paths, s, arg)) continue;
        uint32_t count = 0;
        double bytes = 0;
        for (uint32_t j = i; j < paths->nsamples; j++) {
            const hs_sample *t = &paths->samples[j];
            if (done[j] || !in(paths, t, arg) || !same_chain(paths, s, t)) continue;
            done[j] = true;
            count++;
            if (has_bytes) bytes += (double)t->values[inuse_space];
        }
        append_chain(out, paths, s, count, bytes, has_bytes);
    }
    free(done);
}

/* The "site N: ..." comment of a site, or NULL. */
static const char *site_comment(const hs_profile *p, const char *site) {
    char prefix[48];
    int n = snprintf(prefix, sizeof prefix, "site %s: ", site);
    for (uint32_t i = 0; i < p->ncomments; i++)
        if (strncmp(p->comments[i], prefix, (size_t)n) == 0) return p->comments[i];
    return NULL;
}

static bool of_site(const hs_profile *p, const hs_sample *s, const void *site) {
    (void)p;
    const char *label = sample_label(s, "site");
    return label && strcmp(label, site) == 0;
}

static bool of_no_listed_site(const hs_profile *p, const hs_sample *s, const void *unused) {
    (void)unused;
    const char *label = sample_label(s, "site");
    return !label || !site_comment(p, label);
}

int hs_report_paths(const hs_profile *paths, hs_text *out) {
    uint32_t inuse_space = hs_profile_sample_type_index(paths, "inuse_space");
    for (uint32_t i = 0; i < paths->ncomments; i++)
        if (strncmp(paths->comments[i], "site ", 5) != 0)
            hs_text_printf(out, "%s\n", paths->comments[i]);
    /* sites in the order of their comments, then chains without a site label */
    for (uint32_t c = 0; c < paths->ncomments; c++) {
        const char *comment = paths->comments[c];
        if (strncmp(comment, "site ", 5) != 0) continue;
        char site[32];
        snprintf(site, sizeof site, "%.*s", (int)strcspn(comment + 5, ":"), comment + 5);
        if (site_comment(paths, site) != comment) continue; /* a repeated number */
        hs_text_printf(out, "\n%s\n", comment);
        append_chains(out, paths, inuse_space, of_site, site);
    }
    bool any = false;
    for (uint32_t i = 0; i < paths->nsamples && !any; i++)
        any = of_no_listed_site(paths, &paths->samples[i], NULL);
    if (any) {
        hs_text_puts(out, "\nchains of no listed site:\n");
        append_chains(out, paths, inuse_space, of_no_listed_site, NULL);
    }
    if (paths->nsamples == 0) hs_text_puts(out, "\nno path was found to any tracked object\n");
    return out->failed ? -1 : 0;
}
