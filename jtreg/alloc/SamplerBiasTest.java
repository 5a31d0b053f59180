/*
 * @test
 * @summary JDK-8356372 (the JVM's sampler before JDK 25 under-samples allocations made outside
 *          a TLAB): on JDK 25+ the byte[65536] site, the small-array site and their total
 *          are within 4 standard deviations of the truth (mean of 3 runs at interval=512k
 *          and at 32k, rate=0); on JDK 11-24 every profile says the JVM has the bias, and
 *          the figures are printed
 * @library /lib
 * @build AllocProfiles SamplerBiasWorkload
 * @run driver SamplerBiasTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/*
 * The statistics (as in AllocAccuracyTest): a site allocating n objects of s bytes, each
 * sampled with p = 1 - exp(-s/I), gets an estimate with variance n s^2 (1 - p) / p. The
 * mean of R independent runs has 1/R of one run's variance. With 48,000 byte[65536] per run
 * (65,552 bytes each) at I = 512 KiB, p = 0.1175: 5,640 samples a run, sigma 1.25 % a run,
 * 0.72 % for the mean of 3 runs, so 4 sigma is 2.9 %: a correct sampler meets the 3 %
 * target with 4-sigma confidence. At 32 KiB, p = 0.865 and 4 sigma of the mean is 0.4 %.
 * The total of both sites (3.9 GB a run) has 4 sigma = 2.6 % at 512 KiB and 0.5 % at
 * 32 KiB: the 1 % target for totals is checkable at 32 KiB only within this test's time
 * (about 10 s of allocation per interval); at 512 KiB the 4-sigma bound applies.
 *
 * Before JDK 25 (sampler_bias.h in the agent has the derivation), an outside-TLAB object of
 * S bytes is sampled with probability 1 - exp(-(S - t)/I), t being the TLAB bytes since the
 * sampler last looked, and never when t >= S: no per-sample weight can correct that, so
 * the agent says so in every profile. The test checks that note, and prints the estimates.
 */
public class SamplerBiasTest {
    static final long[] INTERVALS = {512 * 1024, 32 * 1024};
    static final int RUNS = 3;
    static final String ROUNDS = "48000";
    static final double SIGMAS = 4.0;
    static final String PROFILE = "bias.pb.gz";
    static final String NOTE = "JDK-8356372";

    /** One site's truth and estimate in one run. */
    static final class Figure {
        final long truth;
        final long estimate;
        final double variance;

        Figure(long truth, long estimate, double variance) {
            this.truth = truth;
            this.estimate = estimate;
            this.variance = variance;
        }
    }

    public static void main(String[] args) throws Exception {
        int feature = AllocProfiles.jdkFeature();
        boolean exact = feature >= 25;
        List<String> failures = new ArrayList<>();
        for (long interval : INTERVALS) {
            Map<String, List<Figure>> bySite = new LinkedHashMap<>();
            for (int run = 0; run < RUNS; run++) {
                runOnce(interval, run, exact, bySite);
            }
            for (Map.Entry<String, List<Figure>> e : bySite.entrySet()) {
                check(feature, interval, e.getKey(), e.getValue(), exact, failures);
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("inaccurate estimates:\n  " + String.join("\n  ", failures));
        }
    }

    static void runOnce(long interval, int run, boolean exact, Map<String, List<Figure>> bySite)
            throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=" + interval + ",rate=0,live=false,file=" + PROFILE)
                .jvmFlags("-Xmx256m").label("bias-" + interval + "-" + run)
                .run("SamplerBiasWorkload", ROUNDS);
        r.assertNoCrash().assertExitCode(0);
        Pprof p = AllocProfiles.readProfile(r, PROFILE);
        boolean noted = p.comments.stream().anyMatch(c -> c.contains(NOTE));
        if (noted == exact) {
            r.fail("JDK " + AllocProfiles.jdkFeature() + ": the profile "
                    + (exact ? "has" : "lacks") + " the " + NOTE + " note: " + p.comments);
        }
        long totalTruth = 0, totalEstimate = 0;
        double totalVariance = 0;
        for (String line : r.stdout.split("\n")) {
            if (!line.startsWith("site ")) {
                if (line.startsWith("total ")) checkTotalLine(r, line);
                continue;
            }
            String[] f = line.split("[ =]");
            String site = f[1];
            long size = Long.parseLong(f[3]);
            long count = Long.parseLong(f[5]);
            double prob = AllocProfiles.samplingProbability(size, interval);
            Figure fig = new Figure(size * count, siteEstimate(p, site),
                    count * (double) size * size * (1 - prob) / prob);
            bySite.computeIfAbsent(site, k -> new ArrayList<>()).add(fig);
            totalTruth += fig.truth;
            totalEstimate += fig.estimate;
            totalVariance += fig.variance;
        }
        if (totalTruth == 0) r.fail("the workload did not report its sites");
        bySite.computeIfAbsent("total", k -> new ArrayList<>())
                .add(new Figure(totalTruth, totalEstimate, totalVariance));
    }

    /**
     * measured = expected to 1 ppm: nothing eliminated, nothing else allocated by the thread
     * (a few hundred bytes of the JVM's own, e.g. at an on-stack replacement, are tolerated).
     */
    static void checkTotalLine(AgentRunner.Result r, String line) {
        String[] f = line.split("[ =]");
        long expected = Long.parseLong(f[2]), measured = Long.parseLong(f[4]);
        if (Math.abs(measured - expected) > expected / 1_000_000) {
            r.fail("the thread allocated other than the sites: " + line);
        }
    }

    /** alloc_space of the samples whose first Java frame is SamplerBiasWorkload.siteX. */
    static long siteEstimate(Pprof p, String site) {
        String method = "SamplerBiasWorkload.site" + Character.toUpperCase(site.charAt(0))
                + site.substring(1);
        long estimate = 0;
        for (Pprof.Sample s : p.samples) {
            List<Pprof.Frame> frames = AllocProfiles.javaFrames(p, s);
            if (!frames.isEmpty() && frames.get(0).name().equals(method)) {
                estimate += s.value(p.typeIndex("alloc_space"));
            }
        }
        return estimate;
    }

    static void check(int feature, long interval, String site, List<Figure> runs, boolean exact,
                      List<String> failures) {
        double ratioSum = 0, relVarSum = 0;
        StringBuilder each = new StringBuilder();
        for (Figure f : runs) {
            double ratio = (double) f.estimate / f.truth;
            ratioSum += ratio;
            relVarSum += f.variance / ((double) f.truth * f.truth);
            each.append(String.format(" %.4f", ratio));
        }
        int n = runs.size();
        double mean = ratioSum / n;
        double sigma = Math.sqrt(relVarSum) / n; // of the mean of n independent runs
        System.out.printf("JDK %d interval %d site %-5s: mean estimate/truth %.4f (runs%s), "
                + "sigma of the mean %.2f %%, %+.2f sigma%s%n", feature, interval, site, mean,
                each, 100 * sigma, (mean - 1) / sigma,
                exact ? "" : " [JDK-8356372: not checked, said in the profile]");
        if (exact && Math.abs(mean - 1) > SIGMAS * sigma) {
            failures.add(String.format("interval %d, site %s: mean estimate/truth %.4f is more "
                    + "than %.0f sigma (%.2f %%) from 1", interval, site, mean, SIGMAS,
                    100 * SIGMAS * sigma));
        }
    }
}
