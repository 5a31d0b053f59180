/*
 * SurvivalWorkload: for SurvivalFactorsTest, a program whose short-lived and long-lived
 * allocations differ in size: for SECONDS seconds, in 10 ms slices, one thread allocates
 * GARBAGE_PER_SLICE byte[2000] dropped at once (site `garbage`) and RETAIN_PER_SLICE
 * byte[3000] kept until exit (site `retain`): ~20 MB/s of garbage, ~1 MB/s retained.
 * Ends with a System.gc() so that the exit profile's in-use figure has a GC after the
 * last allocation.
 *
 *   java SurvivalWorkload SECONDS
 *
 * Output: retained=<count>
 */
import java.util.ArrayList;
import java.util.List;

public class SurvivalWorkload {
    static final int GARBAGE_PER_SLICE = 100, RETAIN_PER_SLICE = 3;
    static final long SLICE_NANOS = 10_000_000;
    static final List<byte[]> RETAINED = new ArrayList<>();
    static volatile Object sink;

    static void garbage() { sink = new byte[2000]; }

    static void retain() { RETAINED.add(new byte[3000]); }

    public static void main(String[] args) throws InterruptedException {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        for (long slice = System.nanoTime(); slice < end; slice += SLICE_NANOS) {
            for (int i = 0; i < GARBAGE_PER_SLICE; i++) garbage();
            for (int i = 0; i < RETAIN_PER_SLICE; i++) retain();
            long wait = slice + SLICE_NANOS - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        System.gc();
        System.out.println("retained=" + RETAINED.size());
    }
}
