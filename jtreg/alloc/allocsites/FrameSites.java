/*
 * FrameSites: the workload of FramesTest. Allocation sites at known lines (each marked
 * with a "// line:NAME" comment that FramesTest looks up in this file), called through a
 * known chain:  main -> outerCaller -> middleCaller -> allocateX.
 *
 * It lives in a package so that the profile's filenames carry a package path
 * ("allocsites/FrameSites.java"). Every allocated object is stored in a volatile field so
 * that the JIT's escape analysis cannot remove the allocation.
 *
 * Argument: the number of rounds; each round allocates `PER_ROUND` objects at each site.
 */
package allocsites;

public class FrameSites {
    public static final int PER_ROUND = 1000;
    public static final String DONE = "FrameSites: done";

    public static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        // Load the classes first: loading them from an allocation site would add class
        // loader frames on top of that site's frames, and creating an array class there
        // allocates its java.lang.Class object at the site's line.
        Class.forName("allocsites.Foo");
        Class.forName("allocsites.Outer$Inner");
        Class.forName("[[I");
        Class.forName("[Ljava.lang.String;");
        outerCaller(rounds); // line:main-calls-outer
        System.out.println(DONE);
    }

    static void outerCaller(int rounds) {
        for (int i = 0; i < rounds; i++) {
            middleCaller(PER_ROUND); // line:outer-calls-middle
        }
    }

    static long middleCaller(int count) {
        long total = 0;
        allocateBytes(count); // line:middle-calls-bytes
        total += allocateFoos(count).id; // line:middle-calls-foos
        total += allocateStrings(count, "x").length; // line:middle-calls-strings
        allocateInners(count); // line:middle-calls-inners
        total += allocateMatrices(count, 3).length; // line:middle-calls-matrices
        return total;
    }

    static void allocateBytes(int count) { // line:decl-bytes
        for (int i = 0; i < count; i++) {
            sink = new byte[48]; // line:alloc-bytes
        }
    }

    static Foo allocateFoos(int count) { // line:decl-foos
        Foo last = null;
        for (int i = 0; i < count; i++) {
            last = new Foo(i); // line:alloc-foos
            sink = last;
        }
        return last;
    }

    static Object[] allocateStrings(int count, String fill) { // line:decl-strings
        String[] last = null;
        for (int i = 0; i < count; i++) {
            last = new String[6]; // line:alloc-strings
            last[0] = fill;
            sink = last;
        }
        return last;
    }

    static void allocateInners(long count) { // line:decl-inners
        for (long i = 0; i < count; i++) {
            sink = new Outer.Inner(); // line:alloc-inners
        }
    }

    static int[][] allocateMatrices(int count, int rows) { // line:decl-matrices
        int[][] last = null;
        for (int i = 0; i < count; i++) {
            last = new int[rows][5]; // line:alloc-matrices
            sink = last;
        }
        return last;
    }
}

/** A plain class of the package: its samples' leaf is "allocsites.Foo". */
class Foo {
    final long id;
    final long extra;

    Foo(long id) {
        this.id = id;
        this.extra = id * 31;
    }
}

/** Holds a nested class: its samples' leaf is "allocsites.Outer$Inner". */
class Outer {
    static class Inner {
        int value = 7;
    }
}
