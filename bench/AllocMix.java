/* AllocMix: a synthetic allocation-heavy workload for bench/overhead.sh.
 *
 * Two threads each run a fixed number of steps (a fixed amount of work, not a fixed
 * time, so CPU time is comparable between runs). A step allocates one of a mix of small
 * objects, boxed values, strings, collections and arrays of several sizes (16 B to 64 KiB),
 * chosen by a per-thread xorshift generator with a fixed seed. One allocation in 16 is
 * kept in a bounded per-thread cache (a ring that overwrites its oldest entry), so there
 * is a live set of some megabytes that survives young collections and keeps churning.
 *
 * Usage: java AllocMix [steps per thread, default 12000000]
 * Prints a checksum and the bytes the worker threads allocated (ThreadMXBean), the truth
 * that bench/overhead.sh compares the profile's alloc_space total with.
 * Every allocation flows into the cache store, so escape analysis cannot remove it;
 * the checksum printed at the end only proves the work was done. */
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class AllocMix {
    /* The ground truth for accuracy checks: bytes each worker thread allocated. */
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    private static final int THREADS = 2;
    private static final int CACHE_SLOTS = 1 << 15; /* per thread */

    private static final class Node {
        final long id;
        final Object payload;
        Node next;

        Node(long id, Object payload, Node next) {
            this.id = id;
            this.payload = payload;
            this.next = next;
        }
    }

    private static final class Point {
        final double x;
        final double y;

        Point(double x, double y) {
            this.x = x;
            this.y = y;
        }
    }

    /* One thread's work: returns a checksum of what it allocated. */
    private static long run(long steps, long seed) {
        Object[] cache = new Object[CACHE_SLOTS];
        int cursor = 0;
        long state = seed;
        long checksum = 0;
        Node chain = null;
        for (long step = 0; step < steps; step++) {
            state ^= state << 13;
            state ^= state >>> 7;
            state ^= state << 17;
            int pick = (int) (state >>> 58); /* 0..63 */
            Object made;
            if (pick < 14) {
                made = new Point(step, pick);
            } else if (pick < 24) {
                chain = new Node(step, null, (step & 7) == 0 ? null : chain);
                made = chain;
            } else if (pick < 30) {
                made = Long.valueOf(state); /* mostly outside the Long cache */
            } else if (pick < 35) {
                made = "item-" + (state & 0xffff);
            } else if (pick < 41) {
                made = new byte[16 + (int) (state & 127)];
            } else if (pick < 46) {
                made = new int[64 + (int) (state & 255)];
            } else if (pick < 50) {
                made = new Object[8 + (int) (state & 31)];
            } else if (pick < 54) {
                List<Integer> list = new ArrayList<>(4);
                for (int i = 0; i < 4; i++) list.add(pick * 1000 + i);
                made = list;
            } else if (pick < 57) {
                Map<String, Integer> map = new HashMap<>();
                map.put("a", pick);
                map.put("b", (int) step);
                made = map;
            } else if (pick < 60) {
                made = new long[512 + (int) (state & 511)];
            } else if (pick < 63) {
                made = new char[1024 + (int) (state & 1023)];
            } else {
                made = new byte[(int) (16384 + (state & 49151))]; /* up to 64 KiB */
            }
            if ((step & 15) == 0) {
                cache[cursor] = made;
                cursor = (cursor + 1) & (CACHE_SLOTS - 1);
            }
        }
        for (Object kept : cache) if (kept != null) checksum++;
        if (chain != null) checksum += chain.id;
        return checksum;
    }

    public static void main(String[] args) throws InterruptedException {
        long steps = args.length > 0 ? Long.parseLong(args[0]) : 12_000_000L;
        long[] checksums = new long[THREADS];
        long[] allocatedBytes = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int index = t;
            threads[t] = new Thread(() -> {
                long before = MX.getCurrentThreadAllocatedBytes();
                checksums[index] = run(steps, 0x9E3779B97F4A7C15L + index);
                allocatedBytes[index] = MX.getCurrentThreadAllocatedBytes() - before;
            }, "allocmix-" + t);
            threads[t].start();
        }
        long total = 0, allocated = 0;
        for (int t = 0; t < THREADS; t++) {
            threads[t].join();
            total += checksums[t];
            allocated += allocatedBytes[t];
        }
        System.out.println("AllocMix checksum " + total);
        System.out.println("AllocMix allocated " + allocated);
    }
}
