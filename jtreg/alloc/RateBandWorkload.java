/*
 * RateBandWorkload: makes the JVM offer a chosen number of samples a second, for RateBandTest.
 *
 *   java RateBandWorkload OFFERS_PER_SECOND SECONDS INTERVAL
 *
 * One thread allocates byte[1000] at OFFERS_PER_SECOND x INTERVAL bytes a second (the JVM
 * then offers about OFFERS_PER_SECOND samples a second at interval=INTERVAL), paced in 10 ms
 * slices for SECONDS seconds. Every RETAIN_EVERY-th array is kept until exit (site
 * `retain`), the others dropped at once (site `churn`). The array size is calibrated with
 * ThreadMXBean.getCurrentThreadAllocatedBytes; ends with two System.gc().
 *
 * Output: size=<bytes> churn=<count> retain=<count> seconds=<active seconds>
 */
import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

public class RateBandWorkload {
    /** What main prints last: size=, churn=, retain= and seconds= (groups 1-4). */
    static final java.util.regex.Pattern OUTPUT = java.util.regex.Pattern.compile(
            "size=(\\d+) churn=(\\d+) retain=(\\d+) seconds=([0-9.]+)");
    static final int LENGTH = 1000;
    static final int RETAIN_EVERY = 100;
    static final long SLICE_NANOS = 10_000_000;
    static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    static volatile Object sink;
    static byte[][] kept;

    public static void main(String[] args) throws InterruptedException {
        double offers = Double.parseDouble(args[0]);
        double seconds = Double.parseDouble(args[1]);
        long interval = Long.parseLong(args[2]);
        long size = calibrate();
        double perSlice = offers * interval / size * SLICE_NANOS / 1e9; // arrays per slice
        kept = new byte[(int) (perSlice * (seconds * 1e9 / SLICE_NANOS + 1) / RETAIN_EVERY) + 2][];
        int churned = 0, retained = 0;
        double owed = 0;
        long start = System.nanoTime(), end = start + (long) (seconds * 1e9);
        for (long slice = start; slice < end; slice += SLICE_NANOS) {
            owed += perSlice;
            for (; owed >= 1; owed--) {
                if ((churned + retained) % RETAIN_EVERY == 0) retain(retained++);
                else churn(churned++);
            }
            long wait = slice + SLICE_NANOS - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        double active = (System.nanoTime() - start) / 1e9;
        System.gc();
        System.gc();
        System.out.println("size=" + size + " churn=" + churned + " retain=" + retained
                + " seconds=" + active);
    }

    static void churn(int index) {
        sink = new byte[LENGTH];
    }

    static void retain(int index) {
        kept[index] = new byte[LENGTH];
    }

    /** Bytes of one byte[LENGTH], from a loop that is not a measured site. */
    static long calibrate() {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1000; i++) sink = new byte[LENGTH];
            best = Math.min(best, THREADS.getCurrentThreadAllocatedBytes() - before);
        }
        return best / 1000;
    }
}
