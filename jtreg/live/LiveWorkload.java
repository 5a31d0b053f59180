/*
 * LiveWorkload: the program the live-heap tests run under the agent. It retains a known
 * set of objects from known sites, throws away more than a hundred megabytes from other
 * sites, collects, reports what the JVM says the heap holds after that collection, and
 * exits without allocating anything significant afterwards (the profile reports in-use
 * memory as of the last GC).
 *
 *   retainA   A_COUNT x byte[A_LENGTH]         (kept)
 *   retainB   B_COUNT x LiveWorkload$Node      (kept; a plain object with fields)
 *   retainH   H_COUNT x byte[H_LENGTH]         (kept; only with "humongous": arrays larger
 *                                              than a 1 MiB G1 region)
 *   dropA     byte[A_LENGTH], DROP_BYTES worth (garbage: same class and size as retainA)
 *   dropB     LiveWorkload$Node, DROP_BYTES worth (garbage: same class as retainB)
 *   retainYoung  YOUNG_COUNT x byte[A_LENGTH] after the last GC (only with "young")
 *
 * Arguments (any order): "humongous", "young". Output lines (stdout) the tests parse:
 *   LiveWorkload: heap after last GC: gcinfo=<bytes> bean=<name> mxbean=<bytes>
 *   LiveWorkload: collections during the young phase: <n>
 */
import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

public class LiveWorkload {
    public static final int A_LENGTH = 1000;
    public static final int A_COUNT = 40_000;          // ~40 MB
    public static final int B_COUNT = 440_000;         // ~20 MB at 48 bytes a Node
    public static final int H_LENGTH = 1_100_000;
    public static final int H_COUNT = 8;               // ~8.8 MB, one region and a bit each
    public static final int YOUNG_COUNT = 2_000;       // ~2 MB, small enough for no GC
    public static final long DROP_BYTES = 64L << 20;   // per drop site
    /** Rounds: retained and dropped allocations interleave, so GCs run in between. */
    static final int ROUNDS = 20;

    static final String HEAP_LINE = "LiveWorkload: heap after last GC: ";
    static final String YOUNG_LINE = "LiveWorkload: collections during the young phase: ";

    /** Four longs and an int: 48 bytes with any header layout HotSpot uses today. */
    static final class Node {
        long a, b, c, d;
        int e;

        Node(long seed) {
            a = seed;
            b = seed + 1;
            c = seed + 2;
            d = seed + 3;
            e = (int) seed;
        }
    }

    // Static, so everything kept stays reachable until the JVM exits.
    static byte[][] keptA;
    static Node[] keptB;
    static byte[][] keptH;
    static byte[][] keptYoung;
    /** Where garbage goes, so the JIT cannot remove its allocation. */
    static volatile Object sink;

    public static void main(String[] args) {
        List<String> options = List.of(args);
        // The holders are allocated here (in main), never at a retaining site.
        keptA = new byte[A_COUNT][];
        keptB = new Node[B_COUNT];
        keptH = new byte[H_COUNT][];
        keptYoung = new byte[YOUNG_COUNT][];

        for (int round = 0; round < ROUNDS; round++) {
            retainA(A_COUNT * round / ROUNDS, A_COUNT * (round + 1) / ROUNDS);
            dropA(DROP_BYTES / ROUNDS);
            retainB(B_COUNT * round / ROUNDS, B_COUNT * (round + 1) / ROUNDS);
            dropB(DROP_BYTES / ROUNDS);
        }
        if (options.contains("humongous")) retainH();
        sink = null;

        System.gc();
        System.gc();
        reportHeapAfterGc();

        if (options.contains("young")) {
            long before = collectionCount();
            retainYoung();
            long after = collectionCount();
            System.out.println(YOUNG_LINE + (after - before));
        }
    }

    static void retainA(int from, int to) {
        for (int i = from; i < to; i++) keptA[i] = new byte[A_LENGTH];
    }

    static void retainB(int from, int to) {
        for (int i = from; i < to; i++) keptB[i] = new Node(i);
    }

    static void retainH() {
        for (int i = 0; i < H_COUNT; i++) keptH[i] = new byte[H_LENGTH];
    }

    static void retainYoung() {
        for (int i = 0; i < YOUNG_COUNT; i++) keptYoung[i] = new byte[A_LENGTH];
    }

    static void dropA(long bytes) {
        for (long done = 0; done < bytes; done += A_LENGTH) sink = new byte[A_LENGTH];
    }

    static void dropB(long bytes) {
        for (long done = 0; done < bytes; done += 48) sink = new Node(done);
    }

    /**
     * Prints the heap used after the last collection as the JVM reports it: the sum over
     * the heap pools of GcInfo.getMemoryUsageAfterGc() of the collector that finished
     * last (ZGC's and Shenandoah's "... Pauses" beans describe pauses, not cycles: they
     * are skipped), and MemoryMXBean's heap usage right now, for comparison.
     */
    static void reportHeapAfterGc() {
        GcInfo latest = null;
        String latestBean = "none";
        for (java.lang.management.GarbageCollectorMXBean b
                : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!(b instanceof GarbageCollectorMXBean) || b.getName().endsWith(" Pauses")) continue;
            GcInfo info = ((GarbageCollectorMXBean) b).getLastGcInfo();
            if (info == null) continue;
            if (latest == null || info.getEndTime() > latest.getEndTime()
                    || (info.getEndTime() == latest.getEndTime()
                        && info.getStartTime() > latest.getStartTime())) {
                latest = info;
                latestBean = b.getName();
            }
        }
        long gcinfo = 0;
        if (latest != null) {
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() != MemoryType.HEAP) continue;
                MemoryUsage after = latest.getMemoryUsageAfterGc().get(pool.getName());
                if (after != null) gcinfo += after.getUsed();
            }
        }
        long mxbean = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println(HEAP_LINE + "gcinfo=" + gcinfo + " bean=" + latestBean.replace(' ', '_')
                + " mxbean=" + mxbean);
    }

    static long collectionCount() {
        long n = 0;
        for (java.lang.management.GarbageCollectorMXBean b
                : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
        }
        return n;
    }
}
