/*
 * AccuracyWorkload: allocates an exactly known number of bytes at four sites, for
 * AllocAccuracyTest to compare with the profile's unbiased estimates.
 *
 *   siteSmall     AccuracyWorkload$Small objects (16 bytes with compressed class pointers)
 *   siteKilobyte  byte[1000]
 *   siteLarge     byte[100_000]
 *   siteVarying   Object[] of pseudo-random lengths 0..255 (fixed seed): many sizes
 *
 * Object sizes are not assumed: each kind (and each Object[] length) is calibrated first
 * with com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes deltas, the minimum over a
 * few rounds, allocating from other code than the sites (lambdas), so the calibration
 * does not count as the sites' allocations. The sites run interleaved, a slice of each
 * per round, so that no site gets a time period of its own. Every object is written to a
 * volatile field, so escape analysis cannot remove an allocation; the thread's allocated
 * bytes over the whole run are printed next to the computed total to prove it.
 *
 * Arguments: megabytes per site, seed. Output, one line per site:
 *   site NAME sizes=SIZE:COUNT[,SIZE:COUNT...]
 *   total expected=BYTES measured=BYTES
 */
import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntConsumer;

public class AccuracyWorkload {
    static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    static final int MB = 1024 * 1024;
    static final int MAX_LENGTH = 256;
    static final int LARGE = 100_000;
    static final int KILOBYTE = 1000;

    static volatile Object sink;
    /** What reading the allocated-bytes counter twice allocates itself (0 on HotSpot). */
    static long overhead;

    /** The smallest object with a field: 16 bytes with compressed class pointers. */
    static final class Small {
        int value;
    }

    public static void main(String[] args) {
        long bytesPerSite = Long.parseLong(args[0]) * MB;
        Random random = new Random(Long.parseLong(args[1]));

        overhead = measureOverhead();
        long smallSize = calibrate(n -> sink = new Small(), 4096);
        long kilobyteSize = calibrate(n -> sink = new byte[KILOBYTE], 512);
        long largeSize = calibrate(n -> sink = new byte[LARGE], 16);
        long[] arraySize = new long[MAX_LENGTH];
        for (int length = 0; length < MAX_LENGTH; length++) {
            final int len = length;
            arraySize[length] = calibrate(n -> sink = new Object[len], 256);
        }
        System.out.println("calibration overhead=" + overhead);

        // One round allocates about 1 MB at each site.
        int smallPerRound = (int) (MB / smallSize);
        int kilobytesPerRound = (int) (MB / kilobyteSize);
        int largePerRound = (int) Math.max(1, MB / largeSize);
        int[] lengths = new int[2048];
        long varyingPerRound = 0;
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = random.nextInt(MAX_LENGTH);
            varyingPerRound += arraySize[lengths[i]];
        }
        long rounds = bytesPerSite / MB;

        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (long round = 0; round < rounds; round++) {
            siteSmall(smallPerRound);
            siteKilobyte(kilobytesPerRound);
            siteLarge(largePerRound);
            siteVarying(lengths);
        }
        long measured = THREADS.getCurrentThreadAllocatedBytes() - before - overhead;

        Map<Long, Long> varying = new TreeMap<>();
        for (int length : lengths) varying.merge(arraySize[length], rounds, Long::sum);
        print("small", Map.of(smallSize, rounds * smallPerRound));
        print("kilobyte", Map.of(kilobyteSize, rounds * kilobytesPerRound));
        print("large", Map.of(largeSize, rounds * largePerRound));
        print("varying", varying);
        long expected = rounds * (smallPerRound * smallSize + kilobytesPerRound * kilobyteSize
                + largePerRound * largeSize + varyingPerRound);
        System.out.println("total expected=" + expected + " measured=" + measured);
    }

    static void siteSmall(int count) {
        for (int i = 0; i < count; i++) sink = new Small();
    }

    static void siteKilobyte(int count) {
        for (int i = 0; i < count; i++) sink = new byte[KILOBYTE];
    }

    static void siteLarge(int count) {
        for (int i = 0; i < count; i++) sink = new byte[LARGE];
    }

    static void siteVarying(int[] lengths) {
        for (int length : lengths) sink = new Object[length];
    }

    /** The smallest allocated-bytes delta of an empty measurement. */
    static long measureOverhead() {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            best = Math.min(best, THREADS.getCurrentThreadAllocatedBytes() - before);
        }
        return best;
    }

    /**
     * Bytes one call of body allocates: the smallest allocated-bytes delta of n calls over
     * a few rounds, less the measurement's own overhead, divided by n (a delta can only be
     * inflated, by a JIT deoptimization or class loading, never deflated). Fails unless it
     * divides exactly.
     */
    static long calibrate(IntConsumer body, int n) {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) body.accept(i);
            best = Math.min(best, THREADS.getCurrentThreadAllocatedBytes() - before - overhead);
        }
        if (best % n != 0) {
            throw new IllegalStateException("calibration: " + best + " bytes for " + n
                    + " objects is not a whole size per object");
        }
        return best / n;
    }

    static void print(String site, Map<Long, Long> countBySize) {
        StringBuilder line = new StringBuilder("site " + site + " sizes=");
        String separator = "";
        for (Map.Entry<Long, Long> e : new TreeMap<>(countBySize).entrySet()) {
            line.append(separator).append(e.getKey()).append(':').append(e.getValue());
            separator = ",";
        }
        System.out.println(line);
    }
}
