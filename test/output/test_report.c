/* test_report.c: the terminal report (report.c): site keys (JDK frames skipped), sites
 * merged, ranking by each key, the ± of the in-use bytes, units, widths and truncation,
 * live=false and empty profiles; and the retention paths as text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/estimate.h"
#include "json_check.h"
#include "profile_fixture.h"
#include "output/report.h"
#include "unit.h"

#define SEC 1000000000LL

/* A sample: class, then frames (name:line pairs, leaf first). values: alloc bytes, inuse
 * bytes (objects = bytes / size). */
static void add_site(hs_profile *p, const char *cls, const char *const *frames,
                     const int64_t *lines, uint32_t n, int64_t size, int64_t alloc, int64_t inuse,
                     int64_t age) {
    uint32_t locs[16];
    locs[0] = add_frame(p, cls, 0);
    for (uint32_t i = 0; i < n; i++) locs[i + 1] = add_frame(p, frames[i], lines[i]);
    int64_t values[4] = {alloc / size, alloc, inuse / size, inuse};
    hs_sample_ages ages = {.gc_age = 0, .age_seconds = age};
    hs_profile_add_aged_sample(p, locs, n + 1, values, size, &ages);
}

static hs_profile *new_profile(int nvalues) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, nvalues);
    p->time_nanos = 1000 * SEC;
    p->duration_nanos = 100 * SEC;
    return p;
}

/* Three sites: a cache (big in use, growing), churn (big alloc, nothing in use), a map. */
static hs_profile *three_sites(void) {
    hs_profile *p = new_profile(4);
    const char *cache[] = {"java.util.Arrays.copyOf", "com.acme.Cache.put", "com.acme.Main.main"};
    const int64_t cache_lines[] = {3512, 88, 10};
    add_site(p, "byte[]", cache, cache_lines, 3, 4096, 200 << 20, 150 << 20, 600);
    const char *cache2[] = {"com.acme.Cache.put", "com.acme.Other.run"}; /* same site */
    const int64_t cache2_lines[] = {88, 5};
    add_site(p, "byte[]", cache2, cache2_lines, 2, 4096, 50 << 20, 50 << 20, 0);
    const char *churn[] = {"sun.nio.Buf.alloc", "jdk.internal.X.y", "com.acme.Churn.run"};
    const int64_t churn_lines[] = {1, 2, 33};
    add_site(p, "char[]", churn, churn_lines, 3, 1000, 5000LL << 20, 0, -1);
    const char *map[] = {"java.util.HashMap.newNode", "com.acme.Index.add"};
    const int64_t map_lines[] = {1, 7};
    add_site(p, "java.util.HashMap$Node", map, map_lines, 2, 32, 30 << 20, 20 << 20, 30);
    return fixture_or_null(p);
}

static hs_report_facts facts_of(bool live) {
    hs_report_facts f;
    memset(&f, 0, sizeof f);
    f.now_nanos = 1100 * SEC;
    f.live = live;
    f.heap_known = true;
    f.heap_used = 400u << 20;
    f.last_gc_nanos = 1098 * SEC;
    f.gc_count = 12;
    f.gc_name = "G1";
    f.heap_source = "vmstructs";
    f.interval = 512 * 1024;
    f.interval_now = 512 * 1024;
    f.rate_cap = "off";
    return f;
}

static char *render(const hs_profile *p, const hs_report_facts *f, hs_report_rank by,
                    unsigned width, unsigned rows, bool stacks) {
    hs_report_options o;
    hs_report_options_defaults(&o);
    o.by = by;
    o.width = width;
    o.rows = rows;
    o.stacks = stacks;
    hs_text t = {0};
    CU_ASSERT_EQUAL(hs_report_write(p, f, &o, &t), 0);
    return t.data; /* the caller frees */
}

/* The table's rows: lines starting with a rank. Returns the line of rank r (static). */
static const char *row(const char *text, int r) {
    static char line[2048];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        int rank = 0;
        if (sscanf(p, " %d ", &rank) == 1 && rank == r && n < sizeof line) {
            memcpy(line, p, n);
            line[n] = '\0';
            return line;
        }
        p += n + (p[n] == '\n');
    }
    return "";
}

static size_t display_width(const char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static size_t widest_line(const char *text) {
    size_t widest = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        size_t w = display_width(p, n);
        if (w > widest) widest = w;
        p += n + (p[n] == '\n');
    }
    return widest;
}

static void test_rank_by_inuse_merges_sites(void) {
    hs_profile *p = three_sites();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    char *text = render(p, &f, HS_RANK_INUSE, 200, 20, false);
    /* the two Cache.put stacks are one site: 150 + 50 MiB in use, 250 MiB allocated */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "com.acme.Cache.put:88 → byte[]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "200 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "250 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "50.0%")); /* 200 of 400 MiB */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 2), "com.acme.Index.add:7 → java.util.HashMap$Node"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 3), "com.acme.Churn.run:33 → char[]"));
    CU_ASSERT_STRING_EQUAL(row(text, 4), "");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "3 of 3 sites shown"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "heap: 400 MiB used after the last GC (2s ago, 12 GCs seen; G1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "± is one standard error"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "since the agent started"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "powers of 1024"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "growth: no site's in-use bytes grew"));
    /* alloc/s over the profile's 100 s: 250 MiB / 100 s */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "2.50 MiB/s"));
    /* mean age weighted by in-use bytes: (150 x 600 + 50 x 0) / 200 = 450 s = 8m */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "  8m  "));
    free(text);
    hs_profile_free(p);
}

static void test_rank_by_alloc_and_growth(void) {
    hs_profile *p = three_sites();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    char *text = render(p, &f, HS_RANK_ALLOC, 200, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "com.acme.Churn.run:33"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 2), "com.acme.Cache.put:88"));
    free(text);
    /* growth: the suspect first, even though it holds less */
    snprintf(f.suspects[0].key, sizeof f.suspects[0].key, "com.acme.Index.add:7 → java.util.HashMap$Node");
    f.suspects[0].growth_bytes = 3 << 20;
    f.suspects[0].growth_sigma = 1 << 18;
    f.suspects[0].gcs = 11;
    f.nsuspects = 1;
    text = render(p, &f, HS_RANK_GROWTH, 200, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "com.acme.Index.add:7"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "+3.00 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "grew over the last 11 GCs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 2), "com.acme.Cache.put:88"));
    free(text);
    text = render(p, &f, HS_RANK_INUSE, 200, 1, false); /* n=1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "com.acme.Cache.put:88"));
    CU_ASSERT_STRING_EQUAL(row(text, 2), "");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "1 of 3 sites shown"));
    free(text);
    hs_profile_free(p);
}

/* The row's ± adds up its samples' variances (the snapshot's exact ones): two stacks of one
 * site, and a third sample with nothing in use whose variance must not count. */
static void test_standard_error(void) {
    hs_profile *p = new_profile(4);
    const char *frames[] = {"A.b"}, *other[] = {"A.b", "C.d"};
    const int64_t lines[] = {1}, other_lines[] = {1, 7};
    add_site(p, "X", frames, lines, 1, 1000, 1 << 20, 1 << 20, 5);
    p->samples[p->nsamples - 1].inuse_var = 3e12;
    add_site(p, "X", other, other_lines, 2, 1000, 1 << 20, 1 << 19, 5);
    p->samples[p->nsamples - 1].inuse_var = 1e12;
    add_site(p, "X", other, other_lines, 2, 1000, 1 << 20, 0, 5);
    p->samples[p->nsamples - 1].inuse_var = 5e12; /* no in-use bytes: ignored */
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    char expected[32], cell[40];
    hs_size_text(sqrt(4e12), expected, sizeof expected);
    snprintf(cell, sizeof cell, "±%s", expected);
    char *text = render(p, &f, HS_RANK_INUSE, 200, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), cell));
    free(text);
    hs_profile_free(p);
}

static uint64_t rng_state = 0x5eed5eed12345678ULL;

static double uniform(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* "±724 KiB" in the first row, in bytes. */
static double sigma_of_first_row(const char *text) {
    const char *cell = strstr(row(text, 1), "±");
    double v = 0;
    char unit[8] = "";
    if (!cell || sscanf(cell + strlen("±"), "%lf %7s", &v, unit) != 2) return -1;
    double scale = strcmp(unit, "KiB") == 0 ? 1024 : strcmp(unit, "MiB") == 0 ? 1 << 20 : 1;
    return v * scale;
}

/* The ± is a standard error: over simulated samplings of one site (the JVM samples bytes at
 * the points of a Poisson process of mean spacing I, so an object of s bytes is in the
 * sample with p = 1 - exp(-s/I), independently of the others), the spread of the unbiased
 * in-use estimate matches the ± the report prints. 400 trials: the spread itself is known
 * to about 1/sqrt(2 x 399) = 3.5 %, so they must agree within 4 of that, 14 %. */
static void test_standard_error_matches_spread(void) {
    const int trials = 400, objects = 20000;
    const double size = 1000, interval = 65536;
    double p = 1 - exp(-size / interval), w = 1 / p;
    double sum = 0, sum_sq = 0, sigma_sum = 0;
    hs_report_facts f = facts_of(true);
    f.interval = (int64_t)interval;
    f.interval_now = f.interval;
    for (int t = 0; t < trials; t++) {
        int sampled = 0;
        for (int i = 0; i < objects; i++) sampled += uniform() < p;
        double estimate = sampled * w * size;
        sum += estimate;
        sum_sq += estimate * estimate;
        hs_profile *prof = new_profile(4);
        const char *frames[] = {"A.b"};
        const int64_t lines[] = {1};
        add_site(prof, "X", frames, lines, 1, (int64_t)size, (int64_t)llround(estimate),
                 (int64_t)llround(estimate), 5);
        /* as the snapshot computes it: each sample of weight 1 stands for w objects */
        prof->samples[prof->nsamples - 1].inuse_var = hs_ht_variance(size, w, sampled, sampled);
        prof = fixture_or_null(prof);
        CU_ASSERT_PTR_NOT_NULL_FATAL(prof);
        char *text = render(prof, &f, HS_RANK_INUSE, 200, 20, false);
        sigma_sum += sigma_of_first_row(text);
        free(text);
        hs_profile_free(prof);
    }
    double mean = sum / trials, spread = sqrt((sum_sq - trials * mean * mean) / (trials - 1));
    double printed = sigma_sum / trials, truth = objects * size;
    CU_ASSERT_TRUE(fabs(mean - truth) < 4 * spread / sqrt(trials)); /* unbiased */
    if (fabs(printed / spread - 1) >= 0.14)
        fprintf(stderr, "\n  printed ± %.0f, spread %.0f\n", printed, spread);
    CU_ASSERT_TRUE(fabs(printed / spread - 1) < 0.14);
}

static void test_widths(void) {
    hs_profile *p = new_profile(4);
    const char *frames[] = {"com.example.a.very.long.package.name.that.goes.on.and.on.Klass.method"};
    const int64_t lines[] = {1234};
    add_site(p, "com.example.a.very.long.package.name.AllocatedClassWithALongName[]", frames,
             lines, 1, 64, 1 << 20, 1 << 19, 12);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    unsigned widths[] = {40, 60, 80, 100, 132};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        char *text = render(p, &f, HS_RANK_INUSE, widths[i], 20, true);
        CU_ASSERT_TRUE(widest_line(text) <= widths[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "…")); /* the site is cut, marked */
        CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "com.")); /* its middle, not its start */
        CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), ":1234 → ")); /* nor its line */
        CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "512 KiB")); /* in use: never dropped */
        free(text);
    }
    char *wide = render(p, &f, HS_RANK_INUSE, 1000, 20, true);
    CU_ASSERT_PTR_NULL(strstr(row(wide, 1), "…"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(wide, 1), "Klass.method:1234 → com.example"));
    CU_ASSERT_PTR_NOT_NULL(strstr(wide, "      at com.example.a.very.long")); /* stack=true */
    free(wide);
    /* narrow: the least important columns go first, the rank and in-use stay */
    char *narrow = render(p, &f, HS_RANK_INUSE, 40, 20, false);
    const char *titles = strstr(narrow, "\n#");
    CU_ASSERT_PTR_NOT_NULL_FATAL(titles);
    if (strncmp(titles, "\n#   in use  site", 17) != 0) fprintf(stderr, "\n%s\n", narrow);
    CU_ASSERT_EQUAL(strncmp(titles, "\n#   in use  site", 17), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(row(narrow, 1), "512 KiB  c"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(narrow, 1), ":1234 → com.")); /* line kept at 40 too */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(narrow, 1), "Name[]"));       /* and the simple name */
    free(narrow);
    /* ranked by growth: the growth column stays however narrow (it went before the heap
     * share, and a long class among the rows dropped it at 100 columns) */
    snprintf(f.suspects[0].key, sizeof f.suspects[0].key, "%s",
             "com.example.a.very.long.package.name.that.goes.on.and.on.Klass.method:1234 → "
             "com.example.a.very.long.package.name.AllocatedClassWithALongName[]");
    f.suspects[0].growth_bytes = 3 << 20;
    f.suspects[0].growth_sigma = 1 << 18;
    f.suspects[0].gcs = 11;
    f.nsuspects = 1;
    unsigned growth_widths[] = {60, 100};
    for (size_t i = 0; i < sizeof growth_widths / sizeof growth_widths[0]; i++) {
        char *by_growth = render(p, &f, HS_RANK_GROWTH, growth_widths[i], 20, false);
        if (!strstr(row(by_growth, 1), "+3.00 MiB")) fprintf(stderr, "\n%s\n", by_growth);
        CU_ASSERT_PTR_NOT_NULL(strstr(row(by_growth, 1), "+3.00 MiB"));
        CU_ASSERT_TRUE(widest_line(by_growth) <= growth_widths[i]);
        free(by_growth);
    }
    hs_profile_free(p);
}

/* The defect seen on Tomcat at 80 columns: two sites of one JSP method, lines 12 and 140,
 * both read "org.apache.jsp.leak_jsp._jspService:1…". The line and the class stay; width 0
 * (a file, a pipe) cuts nothing. */
static void test_rows_stay_apart(void) {
    hs_profile *p = new_profile(4);
    const char *frames[] = {"org.apache.jsp.leak_005fpage_jsp._jspService"};
    const int64_t line_a[] = {12}, line_b[] = {140};
    add_site(p, "java.util.concurrent.ConcurrentHashMap$Node", frames, line_a, 1, 64, 8 << 20, 6 << 20, 12);
    add_site(p, "java.util.concurrent.ConcurrentHashMap$Node", frames, line_b, 1, 64, 4 << 20, 3 << 20, 12);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    char *text = render(p, &f, HS_RANK_INUSE, 80, 20, false);
    CU_ASSERT_TRUE(widest_line(text) <= 80);
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "_jspService:12 → java.util.concurrent.ConcurrentHashMap$Node"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 2), "_jspService:140 → java.util.concurrent.ConcurrentHashMap$Node"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "…"));
    free(text);
    char *whole = render(p, &f, HS_RANK_INUSE, HS_REPORT_WIDTH_UNLIMITED, 20, true);
    CU_ASSERT_PTR_NULL(strstr(whole, "…"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(whole, 2),
        "org.apache.jsp.leak_005fpage_jsp._jspService:140 → java.util.concurrent.ConcurrentHashMap$Node"));
    CU_ASSERT_PTR_NOT_NULL(strstr(whole, "\nsampling: one sample per 512 KiB allocated on average; rate cap: off\n"));
    free(whole);
    hs_profile_free(p);
}

/* After `stop`: the report says sampling is stopped, shows no in-use column (nothing is
 * tracked, every site would read 0 B) and ranks by allocation. */
static void test_stopped(void) {
    hs_profile *p = three_sites();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    f.stopped = true;
    char *text = render(p, &f, HS_RANK_INUSE, 100, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "sampling is stopped"));
    CU_ASSERT_PTR_NULL(strstr(text, "in use  "));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "Churn.run:33"));
    free(text);
    hs_profile_free(p);
}

/* by=class: one row per allocated class, its sites added up (the variances too), an
 * objects column, and the unattributed rest as a last, unranked row. */
static void test_by_class(void) {
    hs_profile *p = three_sites();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint32_t loc = add_frame(p, "[heap not attributed to samples]", 0);
    int64_t rest[4] = {0, 0, 0, 100 << 20};
    hs_profile_add_sample(p, &loc, 1, rest, 0);
    hs_report_facts f = facts_of(true);
    hs_report_options o;
    hs_report_options_defaults(&o);
    o.by_class = true;
    o.width = HS_REPORT_WIDTH_UNLIMITED;
    hs_text t = {0};
    CU_ASSERT_EQUAL(hs_report_write(p, &f, &o, &t), 0);
    const char *text = hs_text_str(&t);
    /* byte[]: the two Cache.put stacks, 150 + 50 MiB in use, 51200 objects of 4096 bytes */
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "51.2 k   200 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "  byte[]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 2), "java.util.HashMap$Node"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n-        -   100 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "[heap not attributed to samples]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "allocated classes by in-use bytes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "3 of 3 classes shown"));
    hs_text_free(&t);
    hs_profile_free(p);
}

/* json=true: the same rows as strictly valid JSON, with the facts the header says. */
static void test_json(void) {
    hs_profile *p = three_sites();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    hs_report_options o;
    hs_report_options_defaults(&o);
    o.json = true;
    o.rows = 2;
    hs_text t = {0};
    CU_ASSERT_EQUAL(hs_report_write(p, &f, &o, &t), 0);
    const char *text = hs_text_str(&t);
    CU_ASSERT_TRUE(json_check(text));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"rows_are\":\"sites\",\"ranked_by\":\"inuse\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"rank\":1,\"name\":\"com.acme.Cache.put:88 \xe2\x86\x92 byte[]\","
                                        "\"attributed\":true,\"inuse_bytes\":209715200,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"rows_shown\":2,\"rows_total\":3"));
    CU_ASSERT_PTR_NULL(strstr(text, "\"rank\":3"));
    hs_text_free(&t);
    f.stopped = true; /* after stop: no in-use members, and it says so */
    CU_ASSERT_EQUAL(hs_report_write(p, &f, &o, &t), 0);
    CU_ASSERT_TRUE(json_check(hs_text_str(&t)));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_text_str(&t), "\"sampling\":\"stopped\",\"live\":false"));
    CU_ASSERT_PTR_NULL(strstr(hs_text_str(&t), "inuse_bytes"));
    hs_text_free(&t);
    hs_profile_free(p);
}

static void test_live_off_and_empty(void) {
    hs_profile *p = new_profile(2);
    const char *frames[] = {"A.b"};
    const int64_t lines[] = {3};
    uint32_t locs[2] = {add_frame(p, "byte[]", 0), add_frame(p, frames[0], lines[0])};
    int64_t values[2] = {10, 10 << 20};
    hs_profile_add_sample(p, locs, 2, values, 1 << 20);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(false);
    char *text = render(p, &f, HS_RANK_INUSE, 100, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "live tracking is off"));
    CU_ASSERT_PTR_NULL(strstr(text, "in use  "));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "10.0 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "A.b:3 → byte[]"));
    free(text);
    hs_profile_free(p);

    hs_profile *empty = fixture_or_null(new_profile(4));
    CU_ASSERT_PTR_NOT_NULL_FATAL(empty);
    f = facts_of(true);
    f.last_gc_nanos = 0;
    text = render(empty, &f, HS_RANK_INUSE, 100, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "no samples yet"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "no GC seen yet"));
    free(text);
    hs_profile_free(empty);
}

static void test_residual_not_ranked(void) {
    hs_profile *p = new_profile(4);
    uint32_t loc = add_frame(p, "[heap not attributed to samples]", 0);
    int64_t values[4] = {0, 0, 0, 300 << 20};
    hs_profile_add_sample(p, &loc, 1, values, 0);
    const char *frames[] = {"A.b"};
    const int64_t lines[] = {1};
    add_site(p, "X", frames, lines, 1, 100, 1 << 20, 1 << 20, 5);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    char *text = render(p, &f, HS_RANK_INUSE, 100, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "A.b:1 → X"));
    CU_ASSERT_STRING_EQUAL(row(text, 2), "");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "300 MiB of the heap is not attributed to sampled sites"));
    free(text);
    hs_profile_free(p);
}

/* Before any GC the header says what in use is and why (inuse_basis.h). A collector that
 * collects but has not yet: in use is 0 everywhere, and the rows follow what was allocated
 * (not the sites' names: "a.Z" would come before "b.A" by name). A collector that never
 * collects: in use is what was allocated, said so. */
static void test_before_any_gc(void) {
    hs_profile *p = new_profile(4);
    const char *small[] = {"a.Z.put"}, *big[] = {"b.A.put"};
    const int64_t lines[] = {1};
    add_site(p, "byte[]", small, lines, 1, 1000, 1 << 20, 0, -1);
    add_site(p, "byte[]", big, lines, 1, 1000, 9 << 20, 0, -1);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_report_facts f = facts_of(true);
    f.last_gc_nanos = 0;
    f.gc_count = 0;
    f.inuse_basis = HS_INUSE_NO_GC_YET;
    char *text = render(p, &f, HS_RANK_INUSE, 200, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "heap: in use: not known yet: in-use values are as of the "
                                        "last GC, and G1 has not collected yet"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "sites follow allocated bytes until then"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "growth: judged at GCs, and none has run"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 1), "b.A.put:1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(row(text, 2), "a.Z.put:1"));
    free(text);
    f.gc_name = "Epsilon";
    f.inuse_basis = HS_INUSE_NEVER_COLLECTED;
    text = render(p, &f, HS_RANK_INUSE, 200, 20, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "heap: in use = allocated since the agent started: Epsilon "
                                        "never collects the heap"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "in use: estimated objects allocated since the agent started"));
    CU_ASSERT_PTR_NULL(strstr(text, "alive as of the last GC"));
    free(text);
    hs_profile_free(p);
}

static void test_paths_text(void) {
    hs_profile *p = hs_profile_new();
    hs_profile_add_sample_type(p, "inuse_objects", "count");
    hs_profile_add_sample_type(p, "inuse_space", "bytes");
    hs_profile_add_comment(p, "walk: 1.0 ms");
    uint32_t chain[4] = {add_frame(p, "byte[]", 0), add_frame(p, "java.lang.Object[]", 0),
                         add_frame(p, "java.util.ArrayList.elementData", 0),
                         add_frame(p, "[system class] Leak", 0)};
    int64_t values[2] = {10, 2 << 20};
    hs_profile_add_sample(p, chain, 4, values, 0);
    hs_profile_label_samples(p, 0, "site", "1");
    hs_profile_add_comment(p, "site 1: Leak.put:3 → byte[], 4194304 bytes in use; 2 of its 4 "
                              "tracked objects sought were reached");
    hs_profile_add_comment(p, "site 2: Other.x:1 → int[], 100 bytes in use; 0 of its 1 tracked "
                              "objects sought were reached");
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_text t = {0};
    CU_ASSERT_EQUAL(hs_report_paths(p, &t), 0);
    const char *expected =
        "walk: 1.0 ms\n"
        "\n"
        "site 1: Leak.put:3 → byte[], 4194304 bytes in use; 2 of its 4 tracked objects sought "
        "were reached\n"
        "  path:\n"
        "    [system class] Leak\n"
        "      java.util.ArrayList.elementData\n"
        "        java.lang.Object[]\n"
        "          byte[]   (the object; stands for 2.00 MiB in use)\n"
        "\n"
        "site 2: Other.x:1 → int[], 100 bytes in use; 0 of its 1 tracked objects sought were "
        "reached\n";
    if (strcmp(hs_text_str(&t), expected) != 0) fprintf(stderr, "\n%s\n", hs_text_str(&t));
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t), expected);
    hs_text_free(&t);
    hs_profile_free(p);
}

/* Four objects of one site held by one ArrayList read the same chain: printed once, with
 * the count and their bytes together; a different chain stays apart. */
static void test_paths_folded(void) {
    hs_profile *p = hs_profile_new();
    hs_profile_add_sample_type(p, "inuse_objects", "count");
    hs_profile_add_sample_type(p, "inuse_space", "bytes");
    uint32_t chain[3] = {add_frame(p, "byte[]", 0), add_frame(p, "java.lang.Object[]", 0),
                         add_frame(p, "[static] Leak.LIST", 0)};
    uint32_t other[2] = {add_frame(p, "byte[]", 0), add_frame(p, "[thread] main", 0)};
    int64_t values[2] = {1, 1 << 20};
    for (int i = 0; i < 4; i++) hs_profile_add_sample(p, chain, 3, values, 0);
    hs_profile_add_sample(p, other, 2, values, 0);
    for (uint32_t i = 0; i < 5; i++) hs_profile_label_samples(p, i, "site", "1");
    hs_profile_add_comment(p, "site 1: Leak.put:3 → byte[], 5.00 MiB in use: 5 of 5 reached");
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_text t = {0};
    CU_ASSERT_EQUAL(hs_report_paths(p, &t), 0);
    const char *expected =
        "\n"
        "site 1: Leak.put:3 → byte[], 5.00 MiB in use: 5 of 5 reached\n"
        "  path (the same for 4 objects):\n"
        "    [static] Leak.LIST\n"
        "      java.lang.Object[]\n"
        "        byte[]   (the objects; they stand for 4.00 MiB in use)\n"
        "  path:\n"
        "    [thread] main\n"
        "      byte[]   (the object; stands for 1.00 MiB in use)\n";
    if (strcmp(hs_text_str(&t), expected) != 0) fprintf(stderr, "\n%s\n", hs_text_str(&t));
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t), expected);
    hs_text_free(&t);
    hs_profile_free(p);
}

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("report", NULL, NULL);
    CU_add_test(suite, "ranked by in-use bytes, stacks of a site merged", test_rank_by_inuse_merges_sites);
    CU_add_test(suite, "ranked by allocation and by growth; n=", test_rank_by_alloc_and_growth);
    CU_add_test(suite, "± is one standard error of the sampling", test_standard_error);
    CU_add_test(suite, "± matches the spread of simulated samplings", test_standard_error_matches_spread);
    CU_add_test(suite, "never wider than width=, sites cut with an ellipsis", test_widths);
    CU_add_test(suite, "live=false and an empty profile", test_live_off_and_empty);
    CU_add_test(suite, "the unattributed heap is not a ranked site", test_residual_not_ranked);
    CU_add_test(suite, "before any GC: what in use is, rows by allocation", test_before_any_gc);
    CU_add_test(suite, "retention paths as text", test_paths_text);
    CU_add_test(suite, "identical chains folded with a count", test_paths_folded);
    CU_add_test(suite, "narrow rows keep line and class; width 0 cuts nothing", test_rows_stay_apart);
    CU_add_test(suite, "after stop: says so, ranks by allocation", test_stopped);
    CU_add_test(suite, "by=class: a class histogram with the rest", test_by_class);
    CU_add_test(suite, "json=true: strictly valid, the same rows", test_json);
}
