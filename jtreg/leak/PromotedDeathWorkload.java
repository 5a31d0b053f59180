import java.util.ArrayDeque;

/**
 * PromotedDeathWorkload: the two shapes that used to raise false leak alarms.
 *   - heldHere: 32 KB arrays kept 3 s then dropped, about 30 MB/s: long enough to be promoted
 *     (run with -XX:MaxTenuringThreshold=1), then garbage that only a complete marking finds;
 *     its live set is steady at about 90 MB.
 *   - cachePut: a FIFO cache of 2,500 16 KB arrays (40 MB) replacing 125 a second: it churns
 *     through the old generation at a steady size.
 * Plus short-lived garbage (about 60 MB/s) that drives young collections.
 * After args[0] seconds it prints how many heldHere arrays it allocated (ALLOCATED n) and how
 * many are still held (HELD n), forces a
 * full GC (System.gc(): the one complete marking whose moment the test must know), and
 * exits without allocating anything else.
 */
public class PromotedDeathWorkload {
    static final String DONE_LINE = "PromotedDeathWorkload done";
    static final int HELD_BYTES = 32 * 1024;
    static final int CACHE_BYTES = 16 * 1024;
    static final int CACHE_ENTRIES = 2500;
    static final long HOLD_NANOS = 3_000_000_000L;
    static final int TICK_MS = 10;

    static final ArrayDeque<byte[]> HELD = new ArrayDeque<>();
    static final ArrayDeque<Long> HELD_SINCE = new ArrayDeque<>();
    static final ArrayDeque<byte[]> CACHE = new ArrayDeque<>();
    static volatile Object sink;
    static long heldAllocated;

    static void heldHere(long now) {
        heldAllocated++;
        HELD.add(new byte[HELD_BYTES]);
        HELD_SINCE.add(now);
    }

    static void cachePut() {
        CACHE.add(new byte[CACHE_BYTES]);
        if (CACHE.size() > CACHE_ENTRIES) CACHE.poll();
    }

    static void garbage() {
        for (int i = 0; i < 600; i++) sink = new byte[1000];
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        long start = System.nanoTime(), end = start + seconds * 1_000_000_000L;
        for (int i = 0; i < CACHE_ENTRIES; i++) cachePut();
        long ticks = 0;
        while (System.nanoTime() < end) {
            long now = System.nanoTime();
            for (int i = 0; i < 9; i++) heldHere(now); /* 9 x 32 KB per 10 ms: 29.5 MB/s */
            if (ticks % 4 == 0) cachePut();            /* 25 per second... */
            if (ticks % 4 == 0) for (int i = 0; i < 4; i++) cachePut(); /* ...125 in all */
            garbage();
            while (!HELD_SINCE.isEmpty() && now - HELD_SINCE.peek() > HOLD_NANOS) {
                HELD.poll();
                HELD_SINCE.poll();
            }
            ticks++;
            long sleep = start + ticks * TICK_MS * 1_000_000L - System.nanoTime();
            if (sleep > 0) Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        }
        System.out.println("HELD " + HELD.size());
        System.out.println("ALLOCATED " + heldAllocated);
        System.gc();
        System.out.println(DONE_LINE);
    }
}
