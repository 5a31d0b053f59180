/*
 * LeakWorkload: a cache that grows by the same amount before each of STEPS explicit GCs
 * (old objects), next to churn: a ring of arrays replaced every step (young: alive at the
 * end but born before the last GC only) and pure garbage. Prints the facts the tests
 * compare with: the bytes the cache gains per step. An optional argument is the pause
 * after each step in ms (default 40), so that the steps' objects differ in age in seconds.
 */
import java.util.ArrayList;
import java.util.List;

public class LeakWorkload {
    static final int STEPS = 12;
    static final int CACHE_PER_STEP = 512;
    static final int CACHE_ARRAY = 4096;
    static final int CHURN_RING = 1024;
    static final int CHURN_ARRAY = 1000;
    static final String DONE_LINE = "leak workload done";

    static final List<byte[]> CACHE = new ArrayList<>();
    static byte[][] ring;
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        long pause = args.length > 0 ? Long.parseLong(args[0]) : 40;
        for (int step = 1; step <= STEPS; step++) {
            cachePut();
            churn();
            System.gc();
            Thread.sleep(pause); // lets the agent's sweeper record this GC
        }
        System.out.println(DONE_LINE + ": cache " + CACHE.size() + " arrays");
    }

    static void cachePut() {
        for (int i = 0; i < CACHE_PER_STEP; i++) CACHE.add(new byte[CACHE_ARRAY]);
    }

    static void churn() {
        byte[][] next = new byte[CHURN_RING][];
        for (int i = 0; i < CHURN_RING; i++) next[i] = new byte[CHURN_ARRAY];
        ring = next;
        for (int i = 0; i < 2 * CHURN_RING; i++) sink = new byte[CHURN_ARRAY];
    }
}
