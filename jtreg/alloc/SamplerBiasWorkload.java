/*
 * SamplerBiasWorkload: one thread allocating at two sites, for SamplerBiasTest:
 *
 *   siteLarge  byte[65536] (64 KiB + header): often does not fit in what is left of the
 *              thread's TLAB, and then goes outside it (JDK-8356372's case) or into a new one
 *   siteSmall  byte[48] (64 bytes): always in a TLAB
 *
 * interleaved, one large array then SMALL_PER_LARGE small ones per round, so the small
 * arrays keep moving the TLAB's top between large ones. Object sizes are calibrated with
 * ThreadMXBean allocated-bytes deltas (not assumed), and every object is written to a
 * volatile field so that none is eliminated; the thread's allocated bytes over the run are
 * printed next to the sites' total to prove it.
 *
 * Argument: rounds. Output:
 *   site large size=BYTES count=N
 *   site small size=BYTES count=N
 *   total expected=BYTES measured=BYTES
 */
import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

public class SamplerBiasWorkload {
    static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    static final int LARGE_LENGTH = 65536;
    static final int SMALL_LENGTH = 48;
    static final int SMALL_PER_LARGE = 256;

    static volatile Object sink;

    public static void main(String[] args) {
        long rounds = Long.parseLong(args[0]);
        long overhead = allocatedBy(() -> { });
        long largeSize = calibrate(() -> sink = new byte[LARGE_LENGTH], 64, overhead);
        long smallSize = calibrate(() -> sink = new byte[SMALL_LENGTH], 4096, overhead);

        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (long i = 0; i < rounds; i++) {
            siteLarge();
            siteSmall(SMALL_PER_LARGE);
        }
        long measured = THREADS.getCurrentThreadAllocatedBytes() - before - overhead;
        long smallCount = rounds * SMALL_PER_LARGE;
        System.out.println("site large size=" + largeSize + " count=" + rounds);
        System.out.println("site small size=" + smallSize + " count=" + smallCount);
        System.out.println("total expected=" + (rounds * largeSize + smallCount * smallSize)
                + " measured=" + measured);
    }

    static void siteLarge() {
        sink = new byte[LARGE_LENGTH];
    }

    static void siteSmall(int n) {
        for (int i = 0; i < n; i++) {
            sink = new byte[SMALL_LENGTH];
        }
    }

    /** Bytes one call allocates: the smallest over a few rounds of n calls. */
    static long calibrate(Runnable allocation, int n, long overhead) {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) allocation.run();
            long bytes = THREADS.getCurrentThreadAllocatedBytes() - before - overhead;
            best = Math.min(best, bytes / n);
        }
        return best;
    }

    static long allocatedBy(Runnable r) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        r.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
