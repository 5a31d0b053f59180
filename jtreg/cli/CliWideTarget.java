/*
 * CliWideTarget: a long-running application whose sites have long names, for the width rules
 * of the operator's report. Like a JSP's generated class: one long-named method allocating a
 * long-named class at two lines (LINE_A, LINE_B) of one method, so two sites differ only in
 * their line number; they are retained, the one at LINE_A twice as much (4,000 and 2,000
 * arrays held side by side in two lists: their retention chains read the same). Driven as
 * CliTarget is (CliTarget.serve: "ready", "retain", exit when stdin closes); exits with
 * EXIT_CODE.
 */
import java.util.ArrayList;
import java.util.List;

public class CliWideTarget {
    static final int EXIT_CODE = 7;
    static final int LINE_A = 27, LINE_B = 29; // the lines of the two `new` below

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
        CliTarget.serve(CliWideTarget::retainTheRecordsOfThisRequestInTheSessionCache);
        System.exit(EXIT_CODE);
    }
}
