/*
 * PlatformProfileCheck: reads a profile of ChurnRetain with the suite's pprof decoder
 * (jtreg/lib/heapsampler/Pprof.java) on the host and checks it; one line per check,
 * "PASS: ..." or "FAIL: ...", exit status 1 if any failed. Used by test/platforms/jvm-checks.sh.
 *
 *   accuracy PROFILE GC INTERVAL RETAINED CHURNED   a profile of "ChurnRetain run" written at
 *       exit with interval=INTERVAL,rate=0: the collector GC in its gc: comment with a heap
 *       figure; each site's object size as the layout gives it; retain's in-use and alloc and
 *       churn's alloc within four sigma of the truth; nothing of churn in use
 *   dump PROFILE     a profile of "ChurnRetain serve" taken by the command: valid, both sites
 *                    present with their object sizes, retain in use
 *
 * The sampling math: an object of S bytes is sampled with p = 1 - exp(-S / interval) and
 * weighted 1/p, so a site of n such objects is estimated with a relative standard deviation
 * of sqrt((1 - p) / (n p)). Four sigma: a correct agent fails a check about once in 16,000.
 */
import heapsampler.Pprof;

import java.nio.file.Paths;
import java.util.function.Predicate;

public class PlatformProfileCheck {
    static final long RETAIN_SIZE = 16 + 8 * 1022;
    static final long CHURN_SIZE = 16 + 4 * 30;
    static final double SIGMAS = 4.0;
    static int failed;

    public static void main(String[] args) throws Exception {
        Pprof p = Pprof.read(Paths.get(args[1]));
        check(true, "profile " + args[1] + " decodes: " + p.samples.size() + " samples");
        try {
            p.validate();
            check(true, "profile is valid (string table, ids, locations)");
        } catch (AssertionError e) {
            check(false, "profile is invalid: " + e.getMessage());
        }
        Predicate<Pprof.Sample> retain = p.allocatedIn("long[]", "ChurnRetain.retain");
        Predicate<Pprof.Sample> churn = p.allocatedIn("int[]", "ChurnRetain.churn");
        checkSize(p, "retain long[1022]", retain, RETAIN_SIZE);
        checkSize(p, "churn int[30]", churn, CHURN_SIZE);
        if (args[0].equals("accuracy")) {
            accuracy(p, args[2], Long.parseLong(args[3]), Long.parseLong(args[4]), Long.parseLong(args[5]),
                    retain, churn);
        } else if (args[0].equals("dump")) {
            check(p.sum("inuse_space", retain) > 0, "retain's long[] in use: " + p.sum("inuse_space", retain) + " bytes");
            check(p.sum("alloc_space", churn) > 0, "churn's int[] allocated: " + p.sum("alloc_space", churn) + " bytes");
        } else {
            throw new IllegalArgumentException("unknown check " + args[0]);
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    static void accuracy(Pprof p, String gc, long interval, long retained, long churned,
                         Predicate<Pprof.Sample> retain, Predicate<Pprof.Sample> churn) {
        String gcComment = p.comments.stream().filter(c -> c.startsWith("gc: ")).findFirst().orElse("");
        check(gcComment.startsWith("gc: " + gc + ";") && !gcComment.contains("unknown"),
                "collector and heap figure: \"" + gcComment + "\"");
        near(p, "retain long[1022] inuse_space", p.sum("inuse_space", retain), retained, RETAIN_SIZE, interval);
        near(p, "retain long[1022] alloc_space", p.sum("alloc_space", retain), retained, RETAIN_SIZE, interval);
        near(p, "churn int[30] alloc_space", p.sum("alloc_space", churn), churned, CHURN_SIZE, interval);
        long churnInUse = p.sum("inuse_space", churn);
        check(churnInUse == 0, "churn int[30] inuse_space " + churnInUse + " (all garbage at the last GC)");
    }

    /** Every sample of the site carries the object size the layout gives its class. */
    static void checkSize(Pprof p, String what, Predicate<Pprof.Sample> site, long size) {
        long samples = p.samples.stream().filter(site).count();
        long wrong = p.samples.stream().filter(site).filter(s -> {
            Long bytes = Pprof.numLabel(s, "bytes");
            return bytes == null || bytes != size;
        }).count();
        check(samples > 0 && wrong == 0, what + ": " + samples + " samples, " + wrong + " not of " + size + " bytes");
    }

    /** estimate / truth within SIGMAS standard deviations of the sampling. */
    static void near(Pprof p, String what, long estimate, long count, long size, long interval) {
        double prob = 1 - Math.exp(-(double) size / interval);
        double sigma = Math.sqrt((1 - prob) / (count * prob));
        double ratio = (double) estimate / (count * size);
        check(Math.abs(ratio - 1) <= SIGMAS * sigma, String.format(
                "%s: %d bytes, %.4f of the truth (%d x %d bytes), allowed %.4f-%.4f (4 sigma, sigma %.2f%%)",
                what, estimate, ratio, count, size, 1 - SIGMAS * sigma, 1 + SIGMAS * sigma, 100 * sigma));
    }

    static void check(boolean ok, String line) {
        System.out.println((ok ? "PASS: " : "FAIL: ") + line);
        if (!ok) failed++;
    }
}
