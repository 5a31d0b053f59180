/* test_method_infos.c: unit tests of method infos interned by content
 * (src/sampling/method_infos.c).
 *
 * Checked: equal content from different buffers gives one info, and costs no arena bytes
 * the second time; any difference (a name, the file, a line row) gives another; the info
 * owns copies of its strings and lines; a full index or a spent arena answers NULL for new
 * content and still finds what it holds; the pseudo-infos say why a frame has no names. */
#include <stdio.h>
#include <string.h>

#include "sampling/arena.h"
#include "sampling/method_infos.h"
#include "unit.h"

typedef struct {
    char name[64], system_name[64], filename[64];
    hs_line_entry lines[2];
    hs_method_info info;
} draft;

static void make_draft(draft *d, const char *name, int32_t line) {
    memset(d, 0, sizeof *d);
    strcpy(d->name, name);
    strcpy(d->system_name, name);
    strcpy(d->filename, "pkg/Tmpl.java");
    d->lines[0] = (hs_line_entry){.bci = 0, .line = line};
    d->lines[1] = (hs_line_entry){.bci = 8, .line = line + 1};
    d->info = (hs_method_info){.name = d->name, .system_name = d->system_name,
                               .filename = d->filename, .start_line = line, .nlines = 2,
                               .lines = d->lines};
}

static void test_equal_content_is_one_info(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_method_infos *infos = hs_method_infos_create(64, arena);
    CU_ASSERT_PTR_NOT_NULL_FATAL(infos);
    draft a, b;
    make_draft(&a, "pkg.Tmpl.work", 10);
    make_draft(&b, "pkg.Tmpl.work", 10);
    const hs_method_info *first = hs_method_infos_intern(infos, &a.info);
    size_t used = hs_arena_reserved(arena);
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    for (int i = 0; i < 1000; i++) CU_ASSERT_PTR_EQUAL(hs_method_infos_intern(infos, &b.info), first);
    CU_ASSERT_EQUAL(hs_method_infos_count(infos), 1);
    CU_ASSERT_EQUAL(hs_arena_reserved(arena), used);
    /* the info owns its copies: the caller's buffers may change */
    CU_ASSERT_PTR_NOT_EQUAL(first->name, a.name);
    strcpy(a.name, "clobbered");
    a.lines[0].line = 99;
    CU_ASSERT_STRING_EQUAL(first->name, "pkg.Tmpl.work");
    CU_ASSERT_STRING_EQUAL(first->filename, "pkg/Tmpl.java");
    CU_ASSERT_EQUAL(hs_line_for_bci(first->lines, first->nlines, 9), 11);
    CU_ASSERT_EQUAL(first->lines[0].line, 10);
    hs_method_infos_destroy(infos);
    hs_arena_destroy(arena);
}

static void test_any_difference_is_another_info(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_method_infos *infos = hs_method_infos_create(64, arena);
    draft base, other;
    make_draft(&base, "pkg.Tmpl.work", 10);
    const hs_method_info *first = hs_method_infos_intern(infos, &base.info);
    make_draft(&other, "pkg.Tmpl.work2", 10);
    CU_ASSERT_PTR_NOT_EQUAL(hs_method_infos_intern(infos, &other.info), first);
    make_draft(&other, "pkg.Tmpl.work", 10);
    strcpy(other.filename, "pkg/Other.java");
    CU_ASSERT_PTR_NOT_EQUAL(hs_method_infos_intern(infos, &other.info), first);
    make_draft(&other, "pkg.Tmpl.work", 10);
    other.lines[1].line = 12; /* the same class name, recompiled with another body */
    CU_ASSERT_PTR_NOT_EQUAL(hs_method_infos_intern(infos, &other.info), first);
    make_draft(&other, "pkg.Tmpl.work", 10);
    other.info.nlines = 1;
    CU_ASSERT_PTR_NOT_EQUAL(hs_method_infos_intern(infos, &other.info), first);
    make_draft(&other, "pkg.Tmpl.work", 10);
    other.info.nlines = 0; /* native: no lines */
    other.info.lines = NULL;
    const hs_method_info *native = hs_method_infos_intern(infos, &other.info);
    CU_ASSERT_PTR_NOT_EQUAL(native, first);
    CU_ASSERT_EQUAL(native->nlines, 0);
    CU_ASSERT_EQUAL(hs_method_infos_count(infos), 6);
    CU_ASSERT_PTR_EQUAL(hs_method_infos_intern(infos, &base.info), first);
    hs_method_infos_destroy(infos);
    hs_arena_destroy(arena);
}

static void test_no_room_is_null(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_method_infos *infos = hs_method_infos_create(2, arena);
    draft d;
    make_draft(&d, "A.a", 1);
    const hs_method_info *a = hs_method_infos_intern(infos, &d.info);
    make_draft(&d, "B.b", 1);
    CU_ASSERT_PTR_NOT_NULL(hs_method_infos_intern(infos, &d.info));
    make_draft(&d, "C.c", 1);
    CU_ASSERT_PTR_NULL(hs_method_infos_intern(infos, &d.info)); /* the index is full */
    make_draft(&d, "A.a", 1);
    CU_ASSERT_PTR_EQUAL(hs_method_infos_intern(infos, &d.info), a); /* what it holds, found */
    hs_method_infos_destroy(infos);
    hs_arena_destroy(arena);

    arena = hs_arena_create(4096, 4096); /* one small chunk */
    infos = hs_method_infos_create(1024, arena);
    int made = 0, refused = 0;
    for (int i = 0; i < 200; i++) {
        char name[32];
        snprintf(name, sizeof name, "Script%d.run", i);
        make_draft(&d, name, 1);
        if (hs_method_infos_intern(infos, &d.info)) made++;
        else refused++;
    }
    CU_ASSERT(made > 10 && refused > 0);
    CU_ASSERT(hs_arena_reserved(arena) <= 4096);
    hs_method_infos_destroy(infos);
    hs_arena_destroy(arena);
}

static void test_pseudo_infos_say_why(void) {
    CU_ASSERT_STRING_EQUAL(hs_method_table_full.name, "[method table full]");
    CU_ASSERT_STRING_EQUAL(hs_method_unresolved.name, "[method not resolved]");
    CU_ASSERT_STRING_EQUAL(hs_method_table_full.filename, "");
    CU_ASSERT_EQUAL(hs_line_for_bci(hs_method_table_full.lines, hs_method_table_full.nlines, 5), 0);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"equal content is one info", test_equal_content_is_one_info},
        {"any difference is another info", test_any_difference_is_another_info},
        {"no room is NULL", test_no_room_is_null},
        {"pseudo-infos say why", test_pseudo_infos_say_why},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("method infos", tests);
}
