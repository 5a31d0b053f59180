import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * RegistryLeak: a leak into a static registry (issue 25's, whose naming depended on how G1's
 * markings fell), a steady set and garbage; optionally no forced marking for a while and then
 * G1 concurrent cycles back to back (System.gc() in a loop, run with
 * -XX:+ExplicitGCInvokesConcurrent: each call waits for a cycle started after it).
 *   RegistryLeak SECONDS CYCLES [LEAK_BYTES_PER_S [GARBAGE_MB_PER_S]]
 * runs SECONDS, then CYCLES forced cycles while it goes on allocating (none: it stops at
 * SECONDS). Paced every 10 ms:
 *   - register: LEAK_BYTES_PER_S (default 5,000,000) of 4,000-byte arrays kept forever in a
 *     static HashMap;
 *   - steadyPut: a FIFO set of 5,000 8,000-byte arrays (40 MB), filled first, replacing 250
 *     a second (promoted, then dropped: in use until a marking finds them dead);
 *   - garbage: GARBAGE_MB_PER_S (default 50) of 2,000-byte arrays dropped at once.
 * Prints "CYCLES n", "REGISTERED n" and DONE_LINE, then exits.
 * Used by jtreg/leak/BurstMarkingsTest and bench/leak_horizons.sh.
 */
public class RegistryLeak {
    static final String DONE_LINE = "RegistryLeak done";
    static final int ENTRY_BYTES = 4000, STEADY_BYTES = 8000, STEADY_ENTRIES = 5000;
    static final int GARBAGE_BYTES = 2000, TICKS_PER_SECOND = 100;
    static final long STEADY_PER_SECOND = 250;
    static final Map<Long, byte[]> REGISTRY = new HashMap<>();
    static final ArrayDeque<byte[]> STEADY = new ArrayDeque<>();
    static volatile Object sink;
    static volatile boolean cyclesDone;
    static long registered;

    static void register() { REGISTRY.put(registered++, new byte[ENTRY_BYTES]); }

    static void steadyPut() {
        STEADY.add(new byte[STEADY_BYTES]);
        if (STEADY.size() > STEADY_ENTRIES) STEADY.poll();
    }

    static void garbage() { sink = new byte[GARBAGE_BYTES]; }

    /** How many of something to do at tick t for `perSecond` a second, spread evenly. */
    static long due(long perSecond, long t) {
        return perSecond * (t + 1) / TICKS_PER_SECOND - perSecond * t / TICKS_PER_SECOND;
    }

    public static void main(String[] args) throws Exception {
        long quietTicks = Long.parseLong(args[0]) * TICKS_PER_SECOND;
        int cycles = Integer.parseInt(args[1]);
        long leakPerSecond = (args.length > 2 ? Long.parseLong(args[2]) : 5_000_000) / ENTRY_BYTES;
        long garbagePerSecond = (args.length > 3 ? Long.parseLong(args[3]) : 50) * 1_000_000 / GARBAGE_BYTES;
        for (int i = 0; i < STEADY_ENTRIES; i++) steadyPut();
        Thread markings = new Thread(() -> {
            for (int i = 0; i < cycles; i++) System.gc();
            cyclesDone = true;
        }, "markings");
        markings.setDaemon(true);
        cyclesDone = cycles == 0;
        long start = System.nanoTime();
        for (long t = 0; t < quietTicks || !cyclesDone; t++) {
            if (t == quietTicks && cycles > 0) markings.start();
            for (long i = due(leakPerSecond, t); i > 0; i--) register();
            for (long i = due(STEADY_PER_SECOND, t); i > 0; i--) steadyPut();
            for (long i = due(garbagePerSecond, t); i > 0; i--) garbage();
            long sleep = start + (t + 1) * (1_000_000_000L / TICKS_PER_SECOND) - System.nanoTime();
            if (sleep > 0) Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        }
        System.out.println("CYCLES " + cycles);
        System.out.println("REGISTERED " + REGISTRY.size());
        System.out.println(DONE_LINE);
    }
}
