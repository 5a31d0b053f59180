/*
 * FastGcWorkload: a retained set, then garbage allocated fast into a small young
 * generation (run with -Xmn8m): hundreds of young GCs a second, for SweepPaceTest.
 *
 *   java -Xmn8m FastGcWorkload SECONDS
 *
 * Keeps KEPT arrays of byte[KEPT_LENGTH] (site `retain`) until exit, then allocates
 * byte[256] and drops each at once (site `churn`) for SECONDS seconds, then runs one
 * System.gc(). Prints the retained count and the young GCs seen (GarbageCollectorMXBean).
 */
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

public class FastGcWorkload {
    static final int KEPT = 20_000;
    static final int KEPT_LENGTH = 1000;
    static final String OUTPUT = "fast-gc: retained=";

    static volatile Object sink;
    static byte[][] kept = new byte[KEPT][];

    public static void main(String[] args) {
        double seconds = Double.parseDouble(args[0]);
        for (int i = 0; i < KEPT; i++) retain(i);
        long collectionsBefore = collections();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) churn();
        }
        long collections = collections() - collectionsBefore;
        System.gc();
        System.out.println(OUTPUT + KEPT + " collections=" + collections + " seconds=" + seconds);
    }

    static void retain(int index) {
        kept[index] = new byte[KEPT_LENGTH];
    }

    static void churn() {
        sink = new byte[256];
    }

    static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }
}
