/*
 * PromotedHttpWorkload: a set whose objects die after promotion, for ?gc=1. keepHere()
 * allocates ALLOCATED arrays of SIZE bytes; garbage then drives young collections until
 * they are in the old generation (run with -XX:MaxTenuringThreshold=1 and a small young
 * generation); all but KEPT are then dropped, and more young collections follow, which
 * do not trace the old generation: the weak references to the dropped arrays stay set
 * until a complete marking. Prints "ready pid=<pid>" then, and churns a little garbage
 * until its stdin closes (or MAX_SECONDS pass, exit 99), then exits with EXIT_CODE.
 */
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

public class PromotedHttpWorkload {
    static final int EXIT_CODE = 7;
    static final int ALLOCATED = 8000;
    static final int KEPT = 2000;
    static final int SIZE = 10_000;
    static final int MAX_SECONDS = 300;

    static final List<byte[]> HELD = new ArrayList<>();
    static volatile Object sink;

    static void keepHere() {
        for (int i = 0; i < ALLOCATED; i++) HELD.add(new byte[SIZE]);
    }

    static void garbage(int megabytes) {
        for (int i = 0; i < megabytes * 1024; i++) sink = new byte[1000];
    }

    public static void main(String[] args) throws Exception {
        keepHere();
        garbage(400); /* young collections: the arrays are promoted */
        HELD.subList(KEPT, ALLOCATED).clear();
        garbage(200); /* more young collections, no marking */
        Thread churn = new Thread(() -> {
            long end = System.nanoTime() + MAX_SECONDS * 1_000_000_000L;
            while (System.nanoTime() < end) {
                garbage(1);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.out.println("PromotedHttpWorkload: no end after " + MAX_SECONDS + " s");
            System.exit(99);
        }, "churn");
        churn.setDaemon(true);
        churn.start();
        System.out.println("ready pid=" + ProcessHandle.current().pid());
        System.out.flush();
        InputStream in = System.in;
        while (in.read() >= 0) {
            /* until stdin closes */
        }
        System.out.println("held " + HELD.size());
        System.exit(EXIT_CODE);
    }
}
