/*
 * @test
 * @summary Under a rate cap the samples kept are bounded by rate x duration + the bucket's
 *          capacity (1.25 s of the rate), and the estimates agree with the truth: at
 *          rate=100/s and without a cap (rate=0), the alloc_space of two steady sites and a retained site's inuse_space;
 *          under the default cap (1000/s), the same for a site that retains in bursts (at
 *          startup, and then at times that fall anywhere between two checks of p)
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
 * exp(-s/I); the rate cap keeps an offered sample with the probability p_t in force when
 * it is offered and weighs it 1/p_t, so an object counts 1/(p_j p_t) objects with
 * probability p_j p_t: the estimate is unbiased, and for n objects its relative variance
 * is ((1/p_j - 1) + c/p_j) / n, where c is the mean of (1/p_t - 1) over the site's offers
 * (0 without a cap).
 * - Steady sites (both sites allocate in every 10 ms round): the mean of 1/p_t over their
 *   offers is that over all offers, m, which the cap reports ("1/p over the offers m on
 *   average", from the kept samples' squared weights): c = m - 1.
 * - A site that allocates in bursts meets the probabilities of its own moments, lower
 *   than the average as a burst drives them down. Two bounds hold whatever they were: c
 *   is at most 1/p_low - 1, p_low the lowest probability of the run (reported), and the
 *   sum of (1/p_t - 1) over the site's offers is at most that over all N offers of the
 *   run, N (m - 1), so c <= N (m - 1) / (n p_j). The tighter of the two is used.
 * - When the cap raised the JVM's interval (adapt_interval, on by default: at 100/s here),
 *   each sample weighs unbias(s, I) / unbias(s, I0) for the interval I its thread drew it
 *   at; p_j at the highest interval of the run bounds every object's, and is used.
 * 4 sigma per check: a correct agent fails one of the 12 checks about once in 1,300 runs.
 * Here (byte[1000], 300,000 churned): without a cap ~4,600 samples at the retained site
 * (interval 32k, 4 sigma = 5.9 %); at 100/s over 3.5-4.5 s ~100 (4 sigma ~ 50 %), which
 * still catches unweighted samples (off by a factor 1/p_t ~ 70); under the default cap,
 * 126,000 arrays retained in 21 bursts of 6,000 at interval 64k (~1,950 offered, 4 sigma
 * ~ 45 %: a cap that lost the bursts past its budget, as a hard cut did, reads half or less).
 */
public class RateCapTest {
    static final double SIGMAS = 4.0;
    static final Pattern WORKLOAD = Pattern.compile(
            "size=(\\d+) churn=(\\d+) retain=(\\d+) expected=(\\d+) measured=(\\d+)");
    static final Pattern RATE_COMMENT = Pattern.compile(
            "rate cap: (\\d+) samples offered, (\\d+) kept");
    static final Pattern P_COMMENT = Pattern.compile(
            "lowest ([0-9.e+-]+), 1/p over the offers ([0-9.e+-]+) on average");
    /** The cap's exit line: offered, kept, effective rate, seconds, candidates refused. */
    static final Pattern KEPT_LINE = Pattern.compile(
            "rate cap: (\\d+) samples offered, (\\d+) kept \\([^)]*\\), effective rate ([0-9.]+) "
                    + "kept/s over ([0-9.]+) s; \\d+ steps down between \\d+ checks, (\\d+) candidates");
    static final Pattern INTERVAL_COMMENT = Pattern.compile(
            "JVM sampling interval \\d+ \\(configured \\d+, highest (\\d+)\\)");

    /** One run: its options, the cap they mean (0: none), and the workload's mode. */
    record Run(String label, String options, long interval, long rate, boolean bursts) {}

    public static void main(String[] args) throws Exception {
        List<String> failures = new ArrayList<>();
        check(new Run("rate=100/s", "rate=100/s", 32 * 1024, 100, false), failures);
        check(new Run("rate=0", "rate=0", 32 * 1024, 0, false), failures);
        check(new Run("default cap, bursts", null, 64 * 1024, 1000, true), failures);
        if (!failures.isEmpty()) throw new AssertionError(String.join("\n", failures));
    }

    static void check(Run run, List<String> failures) throws Exception {
        String file = run.label().replaceAll("[^a-z0-9]+", "-") + ".pb.gz";
        String options = "interval=" + run.interval() + (run.options() == null ? "" : "," + run.options())
                + ",file=" + file;
        AgentRunner.Result r = AgentRunner.withAgent(options).label(file.replace(".pb.gz", ""))
                .jvmFlags("-Xmx512m").run("RateCapWorkload", run.bursts() ? "bursts" : "steady");
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

        double lowestP = 1.0, meanInverseP = 1.0;
        long offered = 0, highestInterval = run.interval();
        if (run.rate() > 0) {
            String comments = String.join("\n", p.comments);
            Matcher m = RATE_COMMENT.matcher(comments);
            Matcher q = P_COMMENT.matcher(comments);
            if (!m.find() || !q.find()) r.fail("no rate cap comments in " + p.comments);
            offered = Long.parseLong(m.group(1));
            long kept = Long.parseLong(m.group(2));
            long recorded = AllocProfiles.sampleCounts(p).recorded();
            double seconds = r.elapsed.toNanos() / 1e9;
            double bound = run.rate() * seconds + 1.25 * run.rate();
            System.out.printf("%s: %d offered, %d kept, %d recorded in %.2f s (bound %.0f); %s%n",
                    run.label(), offered, kept, recorded, seconds, bound, q.group());
            if (kept > bound || recorded > bound) {
                failures.add(run.label() + ": " + kept + " samples kept, more than rate x duration + "
                        + "the bucket = " + bound);
            }
            if (kept < run.rate()) failures.add(run.label() + ": only " + kept + " samples kept in 3 s");
            lowestP = Double.parseDouble(q.group(1));
            meanInverseP = Double.parseDouble(q.group(2));
            Matcher i = INTERVAL_COMMENT.matcher(comments);
            if (i.find()) highestInterval = Long.parseLong(i.group(1));
            System.out.printf("%s: %s%n", run.label(), i.find(0) ? i.group() : "interval not controlled");
        }
        // The cap may have raised the JVM's interval (adapt_interval): every object was
        // sampled at least as likely as at the highest interval, so its p_j bounds the variance.
        double pj = AllocProfiles.samplingProbability(size, highestInterval);
        long churnAlloc = siteSum(p, "RateCapWorkload.churn", "alloc_space");
        long retainAlloc = siteSum(p, "RateCapWorkload.retain", "alloc_space");
        long retainInuse = siteSum(p, "RateCapWorkload.retain", "inuse_space");
        long churnInuse = siteSum(p, "RateCapWorkload.churn", "inuse_space");
        List<Check> checks = List.of(
                new Check("alloc_space of both sites", churn + retain, churnAlloc + retainAlloc, expected),
                new Check("alloc_space of the churn site", churn, churnAlloc, churn * size),
                new Check("alloc_space of the retained site", retain, retainAlloc, retain * size),
                new Check("inuse_space of the retained site", retain, retainInuse, retain * size));
        for (Check check : checks) {
            double c = run.bursts()
                    ? Math.min(1 / lowestP - 1, offered * (meanInverseP - 1) / (check.objects() * pj))
                    : meanInverseP - 1;
            double sigma = Math.sqrt(((1 / pj - 1) + c / pj) / check.objects());
            compare(run.label() + ": " + check.name(), check.estimate(), check.truth(), sigma, failures);
        }
        System.out.printf("%s: inuse_space of the churn site %d%n", run.label(), churnInuse);
        // `sink` still holds the last array churned: when a GC found it there and it had been
        // sampled, the churn site rightly shows that one sample in use (at most size /
        // (p_j p_t) bytes, p_t the lowest probability of the run).
        double oneSample = size / (pj * lowestP);
        if (churnInuse > oneSample * 1.01) {
            failures.add(run.label() + ": the churn site shows " + churnInuse + " bytes in use, more"
                    + " than the one array `sink` holds (" + Math.round(oneSample) + ")");
        }
    }

    /** An estimate of `objects` objects against its truth. */
    record Check(String name, long objects, long estimate, long truth) {}

    /** Checks estimate against truth within SIGMAS standard deviations (relative sigma). */
    static void compare(String what, long estimate, long truth, double relativeSigma,
                        List<String> failures) {
        double sigma = relativeSigma * truth;
        double deviation = (estimate - truth) / sigma;
        System.out.printf("%s: estimate %,d, truth %,d, ratio %.4f, %+.2f sigma (sigma %.2f %%)%n",
                what, estimate, truth, (double) estimate / truth, deviation, 100 * relativeSigma);
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
