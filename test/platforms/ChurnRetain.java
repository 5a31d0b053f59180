/*
 * ChurnRetain: the known workload of the platform checks (test/platforms/jvm-checks.sh),
 * run in the JVM under test (the emulated arm64 JDK, or the host's for the musl command).
 *
 *   retain   RETAINED x long[1022]: 8,192 bytes each (16-byte array header), kept to the end
 *   churn    int[30]: 136 bytes each, thrown away at once, CHURN_BYTES worth
 *
 *   java ChurnRetain run          retain and churn in ROUNDS interleaved rounds, collect
 *                                 twice, print the truth line, exit 0
 *   java ChurnRetain serve FILE   print "ChurnRetain: serving", then until FILE exists
 *                                 (at most 10 minutes): replace a tenth of the retained
 *                                 arrays and churn 8 MB, every 50 ms; exit 0
 *
 * The truth line: "ChurnRetain: retained <n> long[1022]; churned <m> int[30]".
 */
import java.nio.file.Files;
import java.nio.file.Paths;

public class ChurnRetain {
    static final int RETAINED = 4_000;
    static final long CHURN_BYTES = 256L << 20;
    static final int ROUNDS = 16;
    static final int INT_LENGTH = 30;
    static final int LONG_LENGTH = 1022;
    static final int INT_BYTES = 16 + 4 * INT_LENGTH;

    static long[][] kept = new long[RETAINED][];
    /** Where garbage goes, so that the JIT cannot remove its allocation. */
    static volatile Object sink;
    static long churned;

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("run")) {
            run();
        } else if (args.length == 2 && args[0].equals("serve")) {
            serve(args[1]);
        } else {
            System.err.println("usage: ChurnRetain run | serve STOPFILE");
            System.exit(2);
        }
    }

    static void run() {
        for (int round = 0; round < ROUNDS; round++) {
            retain(RETAINED * round / ROUNDS, RETAINED * (round + 1) / ROUNDS);
            churn(CHURN_BYTES / ROUNDS);
        }
        sink = null;
        System.gc();
        System.gc();
        System.out.println("ChurnRetain: retained " + RETAINED + " long[" + LONG_LENGTH + "]; churned "
                + churned + " int[" + INT_LENGTH + "]");
    }

    static void serve(String stopFile) throws InterruptedException {
        System.out.println("ChurnRetain: serving");
        System.out.flush();
        long deadline = System.nanoTime() + 600_000_000_000L;
        for (int round = 0; !Files.exists(Paths.get(stopFile)) && System.nanoTime() < deadline; round++) {
            int from = RETAINED / 10 * (round % 10);
            retain(from, from + RETAINED / 10);
            churn(8L << 20);
            Thread.sleep(50);
        }
    }

    static void retain(int from, int to) {
        for (int i = from; i < to; i++) kept[i] = new long[LONG_LENGTH];
    }

    static void churn(long bytes) {
        for (long done = 0; done < bytes; done += INT_BYTES) {
            sink = new int[INT_LENGTH];
            churned++;
        }
    }
}
