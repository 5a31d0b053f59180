/**
 * HumongousLocals: G1 humongous arrays kept only by main's local variables, and humongous
 * garbage. With 1 MiB regions, a byte[1_100_000] is humongous (larger than half a region).
 *
 * The agent tracks such arrays without any reference (a weak ref would stop G1 from
 * reclaiming them eagerly). At exit main has returned, so its locals are unreachable, yet
 * they survived every GC: they must be reported in use, and the garbage must not.
 */
public class HumongousLocals {
    static final int KEPT = 12;
    static final int DROPPED = 200;
    static final int LENGTH = 1_100_000;
    static volatile Object sink;

    public static void main(String[] args) {
        byte[][] kept = new byte[KEPT][];
        for (int i = 0; i < KEPT; i++) kept[i] = keep();
        for (int i = 0; i < DROPPED; i++) sink = drop();
        sink = null;
        System.gc();
        System.gc();
        System.out.println("kept " + kept.length);
    }

    static byte[] keep() {
        return new byte[LENGTH];
    }

    static byte[] drop() {
        return new byte[LENGTH];
    }
}
