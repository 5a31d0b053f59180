/*
 * CliTarget: a long-running application for the operator's command to look at. It retains
 * a known amount in one site (RETAINED_COUNT byte[RETAINED_SIZE] arrays allocated in
 * retain(), held through HOLDER -> ArrayList -> byte[]), churns garbage on a background
 * thread, prints "ready pid=<its own pid>" once the retained set is in place and a GC has
 * run, and exits with EXIT_CODE when its stdin closes (or after MAX_SECONDS, with 99, so a
 * lost target never outlives its test). A line "retain" on stdin replaces the retained set
 * with a fresh one (for an agent loaded after startup to see it allocated), then prints
 * "retained".
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class CliTarget {
    static final int EXIT_CODE = 7;
    static final int RETAINED_COUNT = 2000;
    static final int RETAINED_SIZE = 10_000;
    static final int MAX_SECONDS = 600;

    static final Map<String, List<byte[]>> HOLDER = new HashMap<>();
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        retain();
        for (int i = 0; i < 20_000; i++) sink = new byte[512];
        System.gc();
        Thread churn = new Thread(CliTarget::churn, "churn");
        churn.setDaemon(true);
        churn.start();
        serve(CliTarget::retain);
        System.out.println("CliTarget: stdin closed, " + HOLDER.get("retained").size() + " arrays held");
        System.out.flush();
        System.exit(EXIT_CODE);
    }

    /**
     * What the command's tests drive a target by (CliWideTarget too): a watchdog that ends a
     * lost target after MAX_SECONDS (exit 99), "ready pid=<pid>", then per "retain" line on
     * stdin, retain.run(), a GC and "retained"; returns when stdin closes.
     */
    static void serve(Runnable retain) throws java.io.IOException {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(MAX_SECONDS * 1000L);
            } catch (InterruptedException e) {
                return;
            }
            System.out.println("CliTarget: no end after " + MAX_SECONDS + " s");
            System.exit(99);
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        System.out.println("ready pid=" + ProcessHandle.current().pid());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("retain")) {
                retain.run();
                System.gc();
                System.out.println("retained");
                System.out.flush();
            }
        }
    }

    static void retain() {
        List<byte[]> list = new ArrayList<>();
        for (int i = 0; i < RETAINED_COUNT; i++) list.add(new byte[RETAINED_SIZE]);
        HOLDER.put("retained", list);
    }

    static void churn() {
        while (true) {
            for (int i = 0; i < 2000; i++) sink = new byte[256];
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
