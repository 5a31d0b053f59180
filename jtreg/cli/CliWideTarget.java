/*
 * CliWideTarget: a long-running application whose sites have long names, for the width rules
 * of the operator's report. Like a JSP's generated class: one long-named method allocating a
 * long-named class at two lines (LINE_A, LINE_B) of one method, so two sites differ only in
 * their line number; they are retained, the one at LINE_A twice as much (4,000 and 2,000
 * arrays held side by side in two lists: their retention chains read the same). Prints
 * "ready pid=<pid>" once they are in place and a GC has run, and exits with EXIT_CODE when
 * its stdin closes (99 after MAX_SECONDS). A line "retain" on stdin allocates them again,
 * then prints "retained".
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class CliWideTarget {
    static final int EXIT_CODE = 7;
    static final int MAX_SECONDS = 600;
    static final int LINE_A = 31, LINE_B = 33; // the lines of the two `new` below

    static final List<Object> HELD = new ArrayList<>();
    static volatile Object sink;

    /** The allocated class (arrays of it): a long name, as generated code has. */
    static final class AnAllocatedRecordWithAFairlyLongGeneratedName {
    }

    static void retainTheRecordsOfThisRequestInTheSessionCache() {
        List<Object> a = new ArrayList<>(), b = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            a.add(new AnAllocatedRecordWithAFairlyLongGeneratedName[256]);
            if (i % 2 == 0) {
                b.add(new AnAllocatedRecordWithAFairlyLongGeneratedName[256]);
            }
        }
        HELD.clear();
        HELD.add(a);
        HELD.add(b);
    }

    public static void main(String[] args) throws Exception {
        retainTheRecordsOfThisRequestInTheSessionCache();
        for (int i = 0; i < 20_000; i++) sink = new byte[512];
        System.gc();
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(MAX_SECONDS * 1000L);
            } catch (InterruptedException e) {
                return;
            }
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
                retainTheRecordsOfThisRequestInTheSessionCache();
                System.gc();
                System.out.println("retained");
                System.out.flush();
            }
        }
        System.exit(EXIT_CODE);
    }
}
