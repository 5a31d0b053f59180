/*
 * RateCapWorkload: allocates a known number of byte[1000] at two sites for RateCapTest,
 * spread over about three seconds so that a rate cap keeps samples from many seconds of the cap.
 *
 *   churn   byte[1000], dropped at once
 *   retain  byte[1000], all kept until exit (RETAINED of them, ~150 MB)
 *
 * Each round allocates CHURN_PER_ROUND + RETAIN_PER_ROUND arrays, then sleeps PAUSE_MS.
 * With the argument "bursts", the retained arrays come in bursts instead: BURST of them
 * before the first round (when no rate cap knows a population yet) and after every
 * BURST_EVERY-th round, each in one tight loop, at times that fall anywhere between two checks of p.
 * The array size is calibrated with ThreadMXBean.getCurrentThreadAllocatedBytes (the
 * minimum delta over a few rounds); the thread's allocated bytes over the whole loop are
 * printed next to the computed total. Ends with two System.gc() so that the in-use profile
 * ("as of the last GC") sees exactly the retained arrays.
 *
 * Output: size=<bytes> churn=<count> retain=<count> expected=<bytes> measured=<bytes>
 */
import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

public class RateCapWorkload {
    static final int LENGTH = 1000;
    static final int ROUNDS = 300;
    static final int CHURN_PER_ROUND = 1000;
    static final int RETAIN_PER_ROUND = 500;
    static final int RETAINED = ROUNDS * RETAIN_PER_ROUND;
    static final int PAUSE_MS = 10;
    static final int BURST = 6000;
    static final int BURST_EVERY = 15;
    static final int BURST_RETAINED = (ROUNDS / BURST_EVERY + 1) * BURST;
    static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    static volatile Object sink;
    static byte[][] kept;

    public static void main(String[] args) throws InterruptedException {
        boolean bursts = args.length > 0 && args[0].equals("bursts");
        long size = calibrate();
        int retained = bursts ? BURST_RETAINED : RETAINED;
        kept = new byte[retained][];
        long before = THREADS.getCurrentThreadAllocatedBytes();
        int next = 0;
        if (bursts) retain(next, next += BURST);
        for (int round = 0; round < ROUNDS; round++) {
            churn(CHURN_PER_ROUND);
            if (!bursts) retain(next, next += RETAIN_PER_ROUND);
            else if ((round + 1) % BURST_EVERY == 0) retain(next, next += BURST);
            Thread.sleep(PAUSE_MS);
        }
        long measured = THREADS.getCurrentThreadAllocatedBytes() - before;
        long churned = (long) ROUNDS * CHURN_PER_ROUND;
        System.gc();
        System.gc();
        System.out.println("size=" + size + " churn=" + churned + " retain=" + next
                + " expected=" + size * (churned + next) + " measured=" + measured);
    }

    static void churn(int count) {
        for (int i = 0; i < count; i++) sink = new byte[LENGTH];
    }

    static void retain(int from, int to) {
        for (int i = from; i < to; i++) kept[i] = new byte[LENGTH];
    }

    /** Bytes of one byte[LENGTH], from a lambda (not a measured site). */
    static long calibrate() {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1000; i++) sink = new byte[LENGTH];
            best = Math.min(best, THREADS.getCurrentThreadAllocatedBytes() - before);
        }
        return best / 1000;
    }
}
