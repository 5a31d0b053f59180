/*
 * @test
 * @summary The number of samples the agent recorded at one allocation site matches the
 *          bytes the thread allocated there divided by the interval, within 10 %, at
 *          interval=1k and interval=64k (the JDK's own JEP 331 tests check the same)
 * @library /lib
 * @build AllocProfiles RateWorkload
 * @run driver SampleRateTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/*
 * RateWorkload allocates B bytes as n = B/s objects of s = 24 bytes (after a warm-up). Each is sampled with
 * probability p = 1 - exp(-s/I) (see AllocAccuracyTest), so the site's sample count K is
 * Binomial(n, p): E[K] = n p, which is B/I x (1 - exp(-x))/x with x = s/I, i.e. B/I less
 * 1.2 % at I = 1 KiB and less 0.02 % at 64 KiB. The test compares K with n p and prints
 * K / (B/I) as well. The standard deviation of K is below sqrt(n p), so with n p >= 1,600
 * samples, 10 % of n p is at least 4 sigma (K falls outside with probability < 0.01 %):
 * 16 MB at 1 KiB gives about 16,200 samples (10 % = 12.7 sigma), 192 MB at 64 KiB about
 * 3,070 (10 % = 5.5 sigma).
 *
 * K is read back from the profile: the agent wrote alloc_space = K s / p per bucket, and
 * AllocProfiles.rawSamples inverts that.
 */
public class SampleRateTest {
    static final String SITE = "RateWorkload.allocate";
    static final double TOLERANCE = 0.10;
    /* The main thread's first sampling gap may have been drawn before the agent set the
     * interval (FirstSamplesTest checks that case): 4 MB of warm-up elsewhere uses it up. */
    static final String WARM_UP_KILOBYTES = "4096";

    public static void main(String[] args) throws Exception {
        check(1024, 16);
        check(64 * 1024, 192);
    }

    static void check(long interval, int megabytes) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("interval=" + interval
                + ",live=false,rate=0,file=rate.pb.gz").label("interval-" + interval)
                .jvmFlags("-Xmx128m")
                .run("RateWorkload", Integer.toString(megabytes * 1024), WARM_UP_KILOBYTES);
        r.assertNoCrash().assertExitCode(0);
        long allocated = r.stdout.lines().filter(l -> l.startsWith("allocated "))
                .mapToLong(l -> Long.parseLong(l.substring("allocated ".length())))
                .findFirst().orElseThrow(() -> new AssertionError("no \"allocated\" line\n"
                        + r.describe()));
        Pprof p = AllocProfiles.readProfile(r, "rate.pb.gz");
        System.out.println(p.summary(8));
        if (p.period != interval) r.fail("period " + p.period + ", expected " + interval);
        AllocProfiles.SampleCounts counts = AllocProfiles.sampleCounts(p);
        if (counts.dropped() != 0) r.fail("samples were dropped: " + counts);

        // Samples per object size at the site. Besides the byte[8] objects, HotSpot itself
        // allocates a String and its byte[] at the loop's back edge when C2 replaces the
        // running loop (on-stack replacement; gone with -XX:-UseOnStackReplacement); the
        // site's frame rightly carries them. Only the workload's own object size counts
        // (the size with the most bytes).
        Map<Long, Double> samplesBySize = new TreeMap<>();
        Map<Long, Long> spaceBySize = new TreeMap<>();
        for (Pprof.Sample s : p.samples) {
            List<Pprof.Frame> frames = AllocProfiles.javaFrames(p, s);
            if (frames.isEmpty() || !frames.get(0).name().equals(SITE)) continue;
            long bytes = Pprof.numLabel(s, "bytes");
            samplesBySize.merge(bytes, AllocProfiles.rawSamples(p, s), Double::sum);
            spaceBySize.merge(bytes, s.value(p.typeIndex("alloc_space")), Long::sum);
        }
        if (spaceBySize.isEmpty()) r.fail("no samples at " + SITE);
        long size = Collections.max(spaceBySize.entrySet(), Map.Entry.comparingByValue()).getKey();
        double samples = samplesBySize.get(size);
        System.out.println("samples at " + SITE + " by object size: " + samplesBySize);
        // Whole numbers of samples, up to the rounding of alloc_space.
        if (Math.abs(samples - Math.rint(samples)) > 0.01) {
            r.fail("the recovered sample count " + samples + " is not a whole number");
        }
        long objects = allocated / size;
        double expected = objects * AllocProfiles.samplingProbability(size, interval);
        double perInterval = (double) allocated / interval;
        System.out.printf("interval %d: %,d bytes in %,d objects of %d bytes; %.0f samples, "
                + "expected %.1f (ratio %.4f); bytes/interval %.1f (ratio %.4f)%n", interval,
                allocated, objects, size, samples, expected, samples / expected, perInterval,
                samples / perInterval);
        if (expected < 1600) r.fail("the workload is too small for a 4-sigma test: " + expected);
        if (Math.abs(samples - expected) > TOLERANCE * expected) {
            r.fail(String.format("interval %d: %.0f samples, expected %.1f +- 10 %%", interval,
                    samples, expected));
        }
        if (Math.abs(samples - perInterval) > TOLERANCE * perInterval) {
            r.fail(String.format("interval %d: %.0f samples, bytes/interval is %.1f", interval,
                    samples, perInterval));
        }
    }
}
