import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * BurstMarkingsWorkload: a leak into a static registry, a steady set and garbage, with no
 * complete marking for args[0] seconds and then args[1] G1 concurrent cycles back to back
 * (System.gc() in a loop, run with -XX:+ExplicitGCInvokesConcurrent: each call waits for a
 * cycle started after it). Paced every 10 ms:
 *   - register: LEAK_BYTES a second of 4,000-byte arrays kept forever in a static HashMap;
 *   - steadyPut: a FIFO set of 5,000 8,000-byte arrays (40 MB), filled first, replacing 250
 *     a second (promoted, then dropped: in use until a marking finds them dead);
 *   - garbage: 50 MB a second of 2,000-byte arrays dropped at once.
 * Prints "CYCLES n" (concurrent System.gc() calls completed) and DONE_LINE, then exits.
 */
public class BurstMarkingsWorkload {
    static final String DONE_LINE = "BurstMarkingsWorkload done";
    static final int ENTRY_BYTES = 4000, STEADY_BYTES = 8000, STEADY_ENTRIES = 5000;
    static final int GARBAGE_BYTES = 2000, TICKS_PER_SECOND = 100;
    static final long LEAK_BYTES = 5_000_000, STEADY_PER_SECOND = 250, GARBAGE_MB = 50;
    static final Map<Long, byte[]> REGISTRY = new HashMap<>();
    static final ArrayDeque<byte[]> STEADY = new ArrayDeque<>();
    static volatile Object sink;
    static volatile boolean burstDone;
    static long registered;

    static void register() { REGISTRY.put(registered++, new byte[ENTRY_BYTES]); }

    static void steadyPut() {
        STEADY.add(new byte[STEADY_BYTES]);
        if (STEADY.size() > STEADY_ENTRIES) STEADY.poll();
    }

    static void garbage() { sink = new byte[GARBAGE_BYTES]; }

    static long due(long perSecond, long t) {
        return perSecond * (t + 1) / TICKS_PER_SECOND - perSecond * t / TICKS_PER_SECOND;
    }

    public static void main(String[] args) throws Exception {
        long quietTicks = Long.parseLong(args[0]) * TICKS_PER_SECOND;
        int cycles = Integer.parseInt(args[1]);
        for (int i = 0; i < STEADY_ENTRIES; i++) steadyPut();
        Thread burst = new Thread(() -> {
            for (int i = 0; i < cycles; i++) System.gc();
            burstDone = true;
        }, "markings");
        burst.setDaemon(true);
        long start = System.nanoTime();
        for (long t = 0; t < quietTicks || !burstDone; t++) {
            if (t == quietTicks) burst.start();
            for (long i = due(LEAK_BYTES / ENTRY_BYTES, t); i > 0; i--) register();
            for (long i = due(STEADY_PER_SECOND, t); i > 0; i--) steadyPut();
            for (long i = due(GARBAGE_MB * 1_000_000 / GARBAGE_BYTES, t); i > 0; i--) garbage();
            long sleep = start + (t + 1) * (1_000_000_000L / TICKS_PER_SECOND) - System.nanoTime();
            if (sleep > 0) Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        }
        System.out.println("CYCLES " + cycles);
        System.out.println("REGISTERED " + REGISTRY.size());
        System.out.println(DONE_LINE);
    }
}
