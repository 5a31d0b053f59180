/*
 * DumpWorkload: the programs the dump tests profile.
 *
 *   die        leaks byte[10_000] from leak() until the heap is exhausted; main dies of
 *              the uncaught OutOfMemoryError
 *   retry      leaks until OutOfMemoryError, catches it and retries 50 times with the
 *              heap still full (one episode), then frees everything, lets a GC see it, and
 *              leaks again until the next error (a second episode); exits 0
 *   periodic   allocates byte[1000] garbage from churn() for ARG ms, then idles ARG2 ms
 *   peak       keeps PEAK_BIG_MB of byte[10_000] from keepBig() and PEAK_SMALL_MB from
 *              keepSmall(), collects, drops the big set, collects, exits
 */
import java.util.ArrayList;
import java.util.List;

public class DumpWorkload {
    static final int LEAK_SIZE = 10_000;
    static final int PEAK_BIG_MB = 180;
    static final int PEAK_SMALL_MB = 20;
    static final int PEAK_SIZE = 10_000; /* far below G1's humongous threshold */

    static final List<byte[]> KEPT = new ArrayList<>();
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "die": leak(); break;
            case "retry": retry(); break;
            case "periodic": periodic(Long.parseLong(args[1]), Long.parseLong(args[2])); break;
            case "peak": peak(); break;
            default: throw new IllegalArgumentException(args[0]);
        }
    }

    static void leak() {
        while (true) KEPT.add(new byte[LEAK_SIZE]);
    }

    static void retry() throws InterruptedException {
        for (int episode = 0; episode < 2; episode++) {
            try {
                leak();
            } catch (OutOfMemoryError e) {
                int failures = 1;
                for (int i = 0; i < 50; i++) {
                    try {
                        KEPT.add(new byte[LEAK_SIZE]);
                    } catch (OutOfMemoryError again) {
                        failures++;
                    }
                }
                KEPT.clear();
                System.gc();
                Thread.sleep(300); /* the agent's thread records the recovered heap */
                System.out.println("episode " + episode + ": " + failures + " errors caught");
            }
        }
    }

    static void churn(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) sink = new byte[1000];
        }
    }

    static void periodic(long workMillis, long idleMillis) throws InterruptedException {
        churn(workMillis);
        sink = null;
        Thread.sleep(idleMillis);
    }

    static List<byte[]> keep(int megabytes) {
        List<byte[]> list = new ArrayList<>();
        for (long bytes = 0; bytes < (long) megabytes << 20; bytes += PEAK_SIZE) {
            list.add(new byte[PEAK_SIZE]);
        }
        return list;
    }

    static List<byte[]> keepBig() {
        return keep(PEAK_BIG_MB);
    }

    static List<byte[]> keepSmall() {
        return keep(PEAK_SMALL_MB);
    }

    static void peak() throws InterruptedException {
        List<byte[]> small = keepSmall();
        List<byte[]> big = keepBig();
        System.gc();
        Thread.sleep(1000); /* the peak is taken on the agent's thread after the GC */
        sink = big;
        big = null;
        sink = null;
        System.gc();
        Thread.sleep(300);
        System.out.println("kept " + small.size());
    }
}
