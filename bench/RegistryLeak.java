import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * RegistryLeak: a static registry that is never cleaned (issue 25's leak whose naming depended
 * on how G1's markings fell), beside a steady set and garbage. Paced every 10 ms:
 *   - RegistryLeak.register: args[1] bytes a second of 4,000-byte arrays put into a static
 *     HashMap, kept forever;
 *   - RegistryLeak.steadyPut: a FIFO set of 5,000 8,000-byte arrays (40 MB), filled before
 *     the loop, replacing args[2] entries a second: a steady size;
 *   - RegistryLeak.garbage: args[3] MB a second of 2,000-byte arrays dropped at once.
 * Runs args[0] seconds and prints "RegistryLeak done".
 */
public class RegistryLeak {
    static final int ENTRY_BYTES = 4000, STEADY_BYTES = 8000, STEADY_ENTRIES = 5000;
    static final int GARBAGE_BYTES = 2000, TICKS_PER_SECOND = 100;
    static final String DONE_LINE = "RegistryLeak done";
    static final Map<Long, byte[]> REGISTRY = new HashMap<>();
    static final ArrayDeque<byte[]> STEADY = new ArrayDeque<>();
    static volatile Object sink;
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
        long seconds = Long.parseLong(args[0]);
        long leakPerSecond = Long.parseLong(args[1]) / ENTRY_BYTES;
        long steadyPerSecond = Long.parseLong(args[2]);
        long garbagePerSecond = Long.parseLong(args[3]) * 1_000_000 / GARBAGE_BYTES;
        for (int i = 0; i < STEADY_ENTRIES; i++) steadyPut();
        long start = System.nanoTime();
        for (long t = 0; t < seconds * TICKS_PER_SECOND; t++) {
            for (long i = due(leakPerSecond, t); i > 0; i--) register();
            for (long i = due(steadyPerSecond, t); i > 0; i--) steadyPut();
            for (long i = due(garbagePerSecond, t); i > 0; i--) garbage();
            long sleep = start + (t + 1) * (1_000_000_000L / TICKS_PER_SECOND) - System.nanoTime();
            if (sleep > 0) Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        }
        System.out.println(DONE_LINE + ": " + REGISTRY.size() + " entries");
    }
}
