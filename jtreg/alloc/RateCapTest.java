/*
 * @test
 * @summary Under rate=100/s the samples kept are bounded by rate x duration + one window's
 *          budget, and with the cap and without it (rate=0) the alloc_space of two sites and
 *          a retained site's inuse_space agree with the truth within 4 sigma of the samples kept
 * @library /lib
 * @build AllocProfiles RateCapWorkload
 * @run driver RateCapTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/*
 * The statistics. The JVM samples an object of s bytes with probability p_j = 1 -
 * exp(-s/I); the rate cap keeps a sample with probability p_t (about kept / offered over
 * the run) and weighs it 1/p_t, so an object is in the profile with probability p_j p_t and
 * counts 1/(p_j p_t) objects: for n objects the estimate is unbiased with relative standard
 * deviation sqrt((1 - p_j p_t) / (n p_j p_t)), ~ 1/sqrt(samples kept at the site). The
 * weights also carry each window's deficit (what the budget cut off) into the next window;
 * with a steady mix that adds no bias and little variance. 4 sigma per check: a correct
 * agent fails one of the 6 checks about once in 2,500 runs. Here (interval 32k, byte[1000],
 * 300,000 churned and 150,000 retained): without a cap ~4,600 samples at the retained site
 * (4 sigma = 5.9 %); at 100/s over 3.5-4.5 s ~120 (4 sigma ~ 36 %), which still catches
 * unweighted samples (off by a factor 1/p_t ~ 40).
 */
public class RateCapTest {
    static final long INTERVAL = 32 * 1024;
    static final long RATE = 100;
    static final long WINDOW_BUDGET = RATE / 5;
    static final double SIGMAS = 4.0;
    static final Pattern WORKLOAD = Pattern.compile(
            "size=(\\d+) churn=(\\d+) retain=(\\d+) expected=(\\d+) measured=(\\d+)");
    static final Pattern RATE_COMMENT = Pattern.compile(
            "rate cap: (\\d+) samples offered, (\\d+) kept");

    public static void main(String[] args) throws Exception {
        List<String> failures = new ArrayList<>();
        check("rate=" + RATE + "/s", true, failures);
        check("rate=0", false, failures);
        if (!failures.isEmpty()) throw new AssertionError(String.join("\n", failures));
    }

    static void check(String rate, boolean capped, List<String> failures) throws Exception {
        String file = capped ? "capped.pb.gz" : "uncapped.pb.gz";
        AgentRunner.Result r = AgentRunner.withAgent("interval=" + INTERVAL + "," + rate
                + ",file=" + file).label(capped ? "capped" : "uncapped").jvmFlags("-Xmx512m")
                .run("RateCapWorkload");
        r.assertNoCrash().assertExitCode(0);
        Matcher w = WORKLOAD.matcher(r.stdout);
        if (!w.find()) r.fail("the workload did not report its allocations");
        long size = Long.parseLong(w.group(1));
        long churn = Long.parseLong(w.group(2));
        long retain = Long.parseLong(w.group(3));
        long expected = Long.parseLong(w.group(4));
        long measured = Long.parseLong(w.group(5));
        // The loop allocated what the sites account for (Thread.sleep may add a few bytes).
        if (Math.abs(measured - expected) > expected / 1000) {
            r.fail("the thread allocated " + measured + " bytes, the sites " + expected);
        }
        Pprof p = AllocProfiles.readProfile(r, file);

        double keptFraction = 1.0;
        if (capped) {
            Matcher m = RATE_COMMENT.matcher(String.join("\n", p.comments));
            if (!m.find()) r.fail("no rate cap comment in " + p.comments);
            long offered = Long.parseLong(m.group(1));
            long kept = Long.parseLong(m.group(2));
            long recorded = AllocProfiles.sampleCounts(p).recorded();
            double seconds = r.elapsed.toNanos() / 1e9;
            double bound = RATE * seconds + WINDOW_BUDGET;
            System.out.printf("%s: %d offered, %d kept, %d recorded in %.2f s (bound %.0f)%n",
                    rate, offered, kept, recorded, seconds, bound);
            if (kept > bound || recorded > bound) {
                failures.add(rate + ": " + kept + " samples kept, more than rate x duration + "
                        + "a window's budget = " + bound);
            }
            if (kept < RATE) failures.add(rate + ": only " + kept + " samples kept in 3 s");
            keptFraction = (double) kept / offered;
        }
        double pj = AllocProfiles.samplingProbability(size, INTERVAL);
        double pKept = pj * keptFraction;
        long churnAlloc = siteSum(p, "RateCapWorkload.churn", "alloc_space");
        long retainAlloc = siteSum(p, "RateCapWorkload.retain", "alloc_space");
        long retainInuse = siteSum(p, "RateCapWorkload.retain", "inuse_space");
        long churnInuse = siteSum(p, "RateCapWorkload.churn", "inuse_space");
        compare(rate + ": alloc_space of both sites", churnAlloc + retainAlloc, expected,
                churn + retain, pKept, failures);
        compare(rate + ": alloc_space of the retained site", retainAlloc, retain * size, retain,
                pKept, failures);
        compare(rate + ": inuse_space of the retained site", retainInuse, retain * size, retain,
                pKept, failures);
        System.out.printf("%s: inuse_space of the churn site %d%n", rate, churnInuse);
        // `sink` still holds the last array churned: when a GC found it there and it had been
        // sampled, the churn site rightly shows that one sample in use (size / pKept bytes).
        if (churnInuse > size / pKept * 1.01) {
            failures.add(rate + ": the churn site shows " + churnInuse + " bytes in use, more than"
                    + " the one array `sink` holds (" + Math.round(size / pKept) + ")");
        }
    }

    /** Checks estimate against truth within SIGMAS standard deviations (see above). */
    static void compare(String what, long estimate, long truth, long objects, double p,
                        List<String> failures) {
        double sigma = Math.sqrt((1 - p) / (objects * p)) * truth;
        double deviation = (estimate - truth) / sigma;
        System.out.printf("%s: estimate %,d, truth %,d, ratio %.4f, %+.2f sigma (sigma %.2f %%)%n",
                what, estimate, truth, (double) estimate / truth, deviation, 100 * sigma / truth);
        if (Math.abs(deviation) > SIGMAS) {
            failures.add(String.format("%s: estimate %,d is %.2f sigma from the truth %,d",
                    what, estimate, deviation, truth));
        }
    }

    /** The value summed over the samples whose first Java frame is the method. */
    static long siteSum(Pprof p, String method, String type) {
        int index = p.typeIndex(type);
        long sum = 0;
        for (Pprof.Sample s : p.samples) {
            List<Pprof.Frame> frames = AllocProfiles.javaFrames(p, s);
            if (!frames.isEmpty() && frames.get(0).name().equals(method)) sum += s.value(index);
        }
        return sum;
    }
}
