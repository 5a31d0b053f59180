import java.util.ArrayDeque;

/**
 * LeakDetect: the leak-hunting target of issue 17. Three sites, paced every 10 ms:
 *   - LeakDetect.leakHere: args[1] bytes a second (3,000-byte arrays) kept forever;
 *   - LeakDetect.cachePut: a FIFO cache of args[4] (default 10,000) 10,000-byte arrays
 *     (100 MB) replacing args[2] entries a second: a steady size, churning through the old
 *     generation;
 *   - LeakDetect.garbage: args[3] MB a second of 2,000-byte arrays dropped at once.
 * Runs args[0] seconds and prints "LeakDetect done".
 */
public class LeakDetect {
    static final int LEAK_BYTES = 3000, CACHE_BYTES = 10_000;
    static final int GARBAGE_BYTES = 2000, TICKS_PER_SECOND = 100;
    static final ArrayDeque<byte[]> LEAK = new ArrayDeque<>();
    static final ArrayDeque<byte[]> CACHE = new ArrayDeque<>();
    static volatile Object sink;

    static void leakHere() { LEAK.add(new byte[LEAK_BYTES]); }

    static int cacheEntries = 10_000;

    static void cachePut() {
        CACHE.add(new byte[CACHE_BYTES]);
        if (CACHE.size() > cacheEntries) CACHE.poll();
    }

    static void garbage() { sink = new byte[GARBAGE_BYTES]; }

    /** How many of something to do at tick t for `perSecond` a second, spread evenly. */
    static long due(long perSecond, long t) {
        return perSecond * (t + 1) / TICKS_PER_SECOND - perSecond * t / TICKS_PER_SECOND;
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        long leakPerSecond = Long.parseLong(args[1]) / LEAK_BYTES;
        long cachePerSecond = Long.parseLong(args[2]);
        long garbagePerSecond = Long.parseLong(args[3]) * 1_000_000 / GARBAGE_BYTES;
        if (args.length > 4) cacheEntries = Integer.parseInt(args[4]);
        for (int i = 0; i < cacheEntries; i++) cachePut();
        long start = System.nanoTime();
        for (long t = 0; t < seconds * TICKS_PER_SECOND; t++) {
            for (long i = due(leakPerSecond, t); i > 0; i--) leakHere();
            for (long i = due(cachePerSecond, t); i > 0; i--) cachePut();
            for (long i = due(garbagePerSecond, t); i > 0; i--) garbage();
            long sleep = start + (t + 1) * (1_000_000_000L / TICKS_PER_SECOND) - System.nanoTime();
            if (sleep > 0) Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        }
        System.out.println("LeakDetect done");
    }
}
