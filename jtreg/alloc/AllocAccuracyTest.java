/*
 * @test
 * @summary The unbiased alloc_space estimate of each allocation site is within 4 standard
 *          deviations of the bytes the site really allocated (16-byte objects, byte[1000],
 *          byte[100_000], Object[] of many lengths), at interval=32k; on JDKs before 25
 *          (JDK-8356372 biases the JVM's sampler) only within a loose bound
 * @library /lib
 * @build AllocProfiles AccuracyWorkload
 * @run driver AllocAccuracyTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/*
 * The statistics. HotSpot's sampler (JEP 331) places sampling points on each thread's
 * allocated bytes with exponentially distributed gaps of mean I = interval, and samples
 * the object a point falls in. Gaps being memoryless, an object of s bytes is sampled
 * with probability p = 1 - exp(-s/I), independently of the others. A site allocating n_s
 * objects of each size s gets K_s ~ Binomial(n_s, p_s) samples, and the agent's estimate
 * is E = sum_s s K_s / p_s, which is unbiased (E[E] = sum_s s n_s = the site's bytes) with
 *
 *     Var(E) = sum_s s^2 n_s p_s (1 - p_s) / p_s^2 = sum_s n_s s^2 (1 - p_s) / p_s.
 *
 * For small objects that is about (bytes)^2 / (expected samples): the relative standard
 * deviation is ~ 1/sqrt(samples). Each estimate sums thousands of independent samples,
 * so it is normal to a good approximation, and |E - truth| <= 4 sigma holds with
 * probability 99.994 % per site: with 4 sites, a correct agent fails this test about
 * once in 4,000 runs. 128 MB per site at 32 KiB gives the 16-byte site about 4,100
 * samples (4 sigma = 6.2 %), the byte[1000] site about 4,000 (6.2 %), the byte[100_000]
 * site 1,220 of its 1,280 objects (2.5 %), and the Object[] site about 4,100 (6.2 %).
 *
 * JDKs before 25 have a sampler bug (JDK-8356372, fixed in JDK 25): its bookkeeping goes
 * wrong after allocations outside a TLAB that leave the TLAB in place (mid-size objects
 * while TLABs are small), which biases the sampling. There the ratios are printed and held
 * to a looser bound, LOOSE_BOUND.
 */
public class AllocAccuracyTest {
    static final long INTERVAL = 32 * 1024;
    static final String MEGABYTES_PER_SITE = "128";
    static final String SEED = "20250521";
    /*
     * Before JDK 25: |estimate / truth - 1| <= LOOSE_BOUND. Measured on JDK 17.0.15 over 24
     * runs (G1, and 2 runs each with Parallel, Serial, Z and Shenandoah): every ratio was
     * within 0.97..1.03 and every deviation within 3.1 sigma, so this workload does not
     * hit the bug in practice. 10 % (6.4 sigma of the widest site) leaves room for the
     * bias under other TLAB sizing and still catches a grossly wrong estimator (without
     * the 1/p scale the estimates are off by 1.05x to 2000x here). Subtler errors, like
     * p = min(1, s/I) (5 % low at the large site), are caught by the JDK 25 bound only.
     */
    static final double LOOSE_BOUND = 0.10;
    static final double SIGMAS = 4.0;

    /** What a site allocated: object count per object size, from the workload's output. */
    record Truth(String site, Map<Long, Long> countBySize) {
        long bytes() {
            return countBySize.entrySet().stream().mapToLong(e -> e.getKey() * e.getValue())
                    .sum();
        }

        double expectedSamples() {
            return countBySize.entrySet().stream().mapToDouble(
                    e -> e.getValue() * AllocProfiles.samplingProbability(e.getKey(), INTERVAL))
                    .sum();
        }

        /** The standard deviation of the unbiased estimate (see the comment above). */
        double sigma() {
            double variance = 0;
            for (Map.Entry<Long, Long> e : countBySize.entrySet()) {
                double s = e.getKey();
                double p = AllocProfiles.samplingProbability(e.getKey(), INTERVAL);
                variance += e.getValue() * s * s * (1 - p) / p;
            }
            return Math.sqrt(variance);
        }
    }

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("interval=" + INTERVAL
                + ",live=false,rate=0,file=accuracy.pb.gz").label("accuracy").jvmFlags("-Xmx256m")
                .run("AccuracyWorkload", MEGABYTES_PER_SITE, SEED);
        r.assertNoCrash().assertExitCode(0);
        Map<String, Truth> truths = parseTruths(r);
        Pprof p = AllocProfiles.readProfile(r, "accuracy.pb.gz");
        System.out.println(p.summary(12));
        if (p.period != INTERVAL) r.fail("period " + p.period + ", expected " + INTERVAL);
        AllocProfiles.SampleCounts counts = AllocProfiles.sampleCounts(p);
        if (counts.dropped() != 0) r.fail("samples were dropped: " + counts);

        boolean exact = AllocProfiles.jdkFeature() >= 25;
        List<String> failures = new ArrayList<>();
        System.out.printf("JDK %d, interval %d: %s%n", AllocProfiles.jdkFeature(), INTERVAL,
                exact ? "estimates must be within 4 sigma"
                        : "JDK-8356372: estimates must be within " + (int) (100 * LOOSE_BOUND)
                        + " %");
        for (Truth truth : truths.values()) {
            String method = "AccuracyWorkload.site" + capitalize(truth.site());
            List<Pprof.Sample> samples = samplesAllocatedBy(p, method);
            long estimate = 0;
            double rawSamples = 0;
            TreeSet<Long> sizes = new TreeSet<>();
            for (Pprof.Sample s : samples) {
                estimate += s.value(p.typeIndex("alloc_space"));
                rawSamples += AllocProfiles.rawSamples(p, s);
                sizes.add(Pprof.numLabel(s, "bytes"));
            }
            // The "bytes" label is the object size the workload calibrated.
            if (!truth.countBySize().keySet().containsAll(sizes)) {
                failures.add(truth.site() + ": sample sizes " + sizes + " are not among the "
                        + "calibrated sizes " + truth.countBySize().keySet());
            }
            long bytes = truth.bytes();
            double sigma = truth.sigma();
            double ratio = (double) estimate / bytes;
            double deviation = (estimate - bytes) / sigma;
            System.out.printf("site %-8s truth %,d bytes, estimate %,d: ratio %.4f, "
                    + "%+.2f sigma (sigma %.2f %%); samples %.0f, expected %.0f%n",
                    truth.site(), bytes, estimate, ratio, deviation, 100 * sigma / bytes,
                    rawSamples, truth.expectedSamples());
            if (exact && Math.abs(deviation) > SIGMAS) {
                failures.add(String.format("%s: estimate %,d is %.2f sigma from the truth %,d "
                        + "(ratio %.4f)", truth.site(), estimate, deviation, bytes, ratio));
            }
            if (!exact && Math.abs(ratio - 1) > LOOSE_BOUND) {
                failures.add(String.format("%s: estimate/truth = %.4f is off by more than %.0f %%",
                        truth.site(), ratio, 100 * LOOSE_BOUND));
            }
        }
        if (!failures.isEmpty()) r.fail("inaccurate estimates:\n  " + String.join("\n  ", failures));
    }

    /**
     * The per-site truth from the workload's "site NAME sizes=S:N,..." lines; checks that
     * the thread allocated exactly what the sites account for ("total expected= measured=").
     */
    static Map<String, Truth> parseTruths(AgentRunner.Result r) {
        Map<String, Truth> truths = new LinkedHashMap<>();
        String total = null;
        for (String line : r.stdout.lines().toList()) {
            if (line.startsWith("site ")) {
                String[] parts = line.split(" ");
                Map<Long, Long> countBySize = new TreeMap<>();
                for (String pair : parts[2].substring("sizes=".length()).split(",")) {
                    String[] sizeCount = pair.split(":");
                    countBySize.put(Long.parseLong(sizeCount[0]), Long.parseLong(sizeCount[1]));
                }
                truths.put(parts[1], new Truth(parts[1], countBySize));
            } else if (line.startsWith("total ")) {
                total = line;
            }
        }
        if (truths.size() != 4 || total == null) r.fail("the workload did not report its sites");
        // measured = expected: no allocation was eliminated, nothing else was allocated.
        String[] fields = total.split("[ =]");
        if (!fields[2].equals(fields[4])) {
            r.fail("the thread allocated other than what the sites account for: " + total);
        }
        return truths;
    }

    /** Samples whose first Java frame is the method (the site allocated them itself). */
    static List<Pprof.Sample> samplesAllocatedBy(Pprof p, String method) {
        List<Pprof.Sample> found = new ArrayList<>();
        for (Pprof.Sample s : p.samples) {
            List<Pprof.Frame> frames = AllocProfiles.javaFrames(p, s);
            if (!frames.isEmpty() && frames.get(0).name().equals(method)) found.add(s);
        }
        return found;
    }

    static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
