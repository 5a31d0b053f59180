/* test_jvm_names.c: signature -> Java name conversions. */
#include <string.h>

#include "sampling/jvm_names.h"
#include "unit.h"

static void check_class(const char *sig, const char *expected) {
    char buf[128];
    size_t n = hs_class_name(sig, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, expected);
    CU_ASSERT_EQUAL(n, strlen(expected));
}

static void test_class_names(void) {
    check_class("Ljava/lang/String;", "java.lang.String");
    check_class("[B", "byte[]");
    check_class("[[I", "int[][]");
    check_class("[Ljava/lang/String;", "java.lang.String[]");
    check_class("Ljava/util/HashMap$Node;", "java.util.HashMap$Node");
    check_class("[Ljava/util/HashMap$Node;", "java.util.HashMap$Node[]");
    check_class("J", "long");
    check_class("LNoPackage;", "NoPackage");
    check_class("weird", "weird");
    check_class("", "");
}

static void test_truncation_reports_needed_length(void) {
    char buf[8];
    size_t n = hs_class_name("Ljava/lang/String;", buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen("java.lang.String"));
    CU_ASSERT_STRING_EQUAL(buf, "java.la");
    n = hs_method_system_name("Ljava/util/ArrayList;", "grow", "(I)[Ljava/lang/Object;", buf,
                              sizeof buf);
    CU_ASSERT_EQUAL(n, strlen("java/util/ArrayList.grow(I)[Ljava/lang/Object;"));
    CU_ASSERT_EQUAL(strlen(buf), 7);
}

static void test_method_names(void) {
    char buf[128];
    hs_method_display_name("Ljava/util/ArrayList;", "grow", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "java.util.ArrayList.grow");
    hs_method_system_name("Ljava/util/ArrayList;", "grow", "(I)[Ljava/lang/Object;", buf,
                          sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "java/util/ArrayList.grow(I)[Ljava/lang/Object;");
    hs_method_display_name("LMain$Inner;", "<init>", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "Main$Inner.<init>");
}

static void test_source_paths(void) {
    char buf[128];
    hs_source_path("Ljava/util/ArrayList;", "ArrayList.java", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "java/util/ArrayList.java");
    hs_source_path("LMain;", "Main.java", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "Main.java");
    hs_source_path("Ljava/util/HashMap$Node;", "HashMap.java", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "java/util/HashMap.java");
    hs_source_path("Ljava/util/ArrayList;", NULL, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "");
    /* generated species classes put their internal name into SourceFile */
    hs_source_path("Ljava/lang/invoke/BoundMethodHandle$Species_LL;",
                   "java/lang/invoke/BoundMethodHandle$Species_LL", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "java/lang/invoke/BoundMethodHandle$Species_LL");
    hs_source_path("Ljava/lang/invoke/LambdaForm$MH;", "LambdaForm$MH", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "java/lang/invoke/LambdaForm$MH");
    hs_source_path("Ljava/util/ArrayList;", "", buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "");
}

static void check_stable(const char *raw, const char *expected) {
    char buf[160];
    size_t n = hs_stable_name(raw, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, expected);
    CU_ASSERT_EQUAL(n, strlen(expected));
}

static void test_stable_hidden_class_names(void) {
    /* JDK 17 */
    check_stable("Foo$$Lambda$14/0x0000000800c03000", "Foo$$Lambda");
    check_stable("Lp/Foo$$Lambda$14.0x0000000800c03000;", "Lp/Foo$$Lambda;");
    check_stable("p.Foo$$Lambda$14.0x0000000800c03000.run", "p.Foo$$Lambda.run");
    /* JDK 25 */
    check_stable("Foo$$Lambda/0x000071a3c8003a00", "Foo$$Lambda");
    check_stable("LFoo$$Lambda.0x000071a3c8003a00;", "LFoo$$Lambda;");
    /* LambdaForms, both JDKs */
    check_stable("java.lang.invoke.LambdaForm$MH/0x00007f5658005000",
                 "java.lang.invoke.LambdaForm$MH");
    check_stable("LambdaForm$MH.0x00007f5658005000", "LambdaForm$MH");
    check_stable("java.lang.invoke.LambdaForm$MH.0x00007f5658005000.invoke",
                 "java.lang.invoke.LambdaForm$MH.invoke");
    check_stable("Ljava/lang/invoke/LambdaForm$DMH.0x00007f5658001400;",
                 "Ljava/lang/invoke/LambdaForm$DMH;");
    check_stable("[Lp/Hidden.0x00007f5658001400;", "[Lp/Hidden;");
    check_stable("(Lp/Hidden.0x00007f5658001400;I)V", "(Lp/Hidden;I)V");
    /* ordinary names stay as they are */
    check_stable("java.util.ArrayList.grow", "java.util.ArrayList.grow");
    check_stable("Foo$1.run", "Foo$1.run");
    check_stable("Foo.lambda$main$0", "Foo.lambda$main$0");
    check_stable("Foo$$Lambda$Bar", "Foo$$Lambda$Bar");
    check_stable("p.Ox.0x12", "p.Ox.0x12");       /* too short for an address */
    check_stable("p.C.0x12345678abc", "p.C");     /* address ends the name */
    check_stable("p.C.0x1234abcdzz", "p.C.0x1234abcdzz"); /* not followed by a separator */
    char in_place[] = "p.Foo$$Lambda$14.0x0000000800c03000.run";
    hs_stable_name(in_place, in_place, sizeof in_place);
    CU_ASSERT_STRING_EQUAL(in_place, "p.Foo$$Lambda.run");
}

static void test_site_keys(void) {
    char key[256];
    const char *frames[] = {"java.util.Arrays.copyOf", "javax.x.Y.z", "jdk.internal.A.b",
                            "sun.misc.C.d", "com.sun.E.f", "[truncated]", "com.acme.Cache.put"};
    const int64_t lines[] = {1, 2, 3, 4, 5, 0, 88};
    hs_site_key(frames, lines, 7, "byte[]", key, sizeof key);
    CU_ASSERT_STRING_EQUAL(key, "com.acme.Cache.put:88 → byte[]");
    hs_site_key(frames, lines, 5, "byte[]", key, sizeof key); /* all JDK: the leaf */
    CU_ASSERT_STRING_EQUAL(key, "java.util.Arrays.copyOf:1 → byte[]");
    const char *plain[] = {"Main.main"};
    const int64_t no_line[] = {0};
    hs_site_key(plain, no_line, 1, "java.lang.String", key, sizeof key);
    CU_ASSERT_STRING_EQUAL(key, "Main.main → java.lang.String");
    hs_site_key(NULL, NULL, 0, "int[]", key, sizeof key);
    CU_ASSERT_STRING_EQUAL(key, "[no Java frames] → int[]");
    CU_ASSERT_TRUE(hs_is_jdk_frame("java.lang.String.<init>"));
    CU_ASSERT_TRUE(hs_is_jdk_frame("com.sun.proxy.X.y"));
    CU_ASSERT_FALSE(hs_is_jdk_frame("javafx.scene.Node.x"));
    CU_ASSERT_FALSE(hs_is_jdk_frame("com.sunny.A.b"));
    CU_ASSERT_FALSE(hs_is_jdk_frame("jdkx.A.b"));
}

static void test_line_lookup(void) {
    hs_line_entry table[] = {{10, 7}, {0, 5}, {4, 6}, {20, 9}};
    hs_line_table_sort(table, 4);
    CU_ASSERT_EQUAL(table[0].bci, 0);
    CU_ASSERT_EQUAL(table[3].bci, 20);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, 0), 5);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, 3), 5);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, 4), 6);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, 12), 7);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, 20), 9);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, 999), 9);
    CU_ASSERT_EQUAL(hs_line_for_bci(table, 4, -1), 0);
    CU_ASSERT_EQUAL(hs_line_for_bci(NULL, 0, 3), 0);
    hs_line_entry late[] = {{8, 3}};
    CU_ASSERT_EQUAL(hs_line_for_bci(late, 1, 2), 0);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"class names from signatures", test_class_names},
        {"truncation reports needed length", test_truncation_reports_needed_length},
        {"method display and system names", test_method_names},
        {"source paths", test_source_paths},
        {"line for bytecode index", test_line_lookup},
        {"stable names for hidden classes", test_stable_hidden_class_names},
        {"site keys skip JDK frames", test_site_keys},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("jvm_names", tests);
}
