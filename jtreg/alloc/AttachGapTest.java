/*
 * @test
 * @summary Attached to a running JVM at interval=16k, threads that existed before the attach
 *          are estimated as the threads started after it are: their first sample is weighted
 *          at the JVM's default interval of 512 KiB, at which HotSpot drew their first gap
 * @library /lib
 * @build AllocProfiles AttachGapWorkload
 * @run driver AttachGapTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

/*
 * HotSpot draws a thread's sample gap at its previous sample, and its first one when it
 * creates the thread, with the interval in force then: 512 KiB in a JVM no agent has set
 * one for. Attached at interval=16k, a thread that was running before allocates an
 * exponential gap of mean 512 KiB before its first sample, and every later gap has mean
 * 16 KiB. Weighted as a 16 KiB sample, that first one stands for 16 KiB of the ~512 KiB
 * that went by: each of the 60 old threads here, allocating 1,000 Rec[256] (about 1 MB),
 * lost min(L, 1 MB) with L ~ Exp(512 KiB), 445 KB on average: the old site read 0.57 of
 * its allocations. Weighted at 512 KiB it stands for the gap it ended, and the estimate is
 * unbiased again.
 *
 * The tolerance: per old thread, the error is -min(L, M) + 512 KiB when its first sample
 * falls within its M bytes (probability 1 - exp(-M / 512 KiB)), mean 0, standard deviation
 * 490 KB (simulated); over 60 threads 3.8 MB of 62 MB, 6.1 %, with the 16 KiB samples'
 * own 1.6 %: 6.3 %. The old site is judged against the new one, which allocates the same
 * arrays: the JVM's own sampler bias before JDK 25 (JDK-8356372: small arrays over-sampled
 * by up to 13 % on 11, accuracy.md) cancels in the ratio, whose standard deviation is
 * 6.5 %: 4 sigma 26 %. The new site alone has the 1.6 %: within 4 sigma (6.4 %) of the
 * truth on JDK 25+; before, within 25 % (JDK 11 reads it 1.03-1.12: the bias; a first
 * sample weighed at the 512 KiB of an old thread would read 1.5). The flaw read 0.58
 * (JDK 25), 0.69 (17) and 0.67 (21) against truth, ratios 0.55-0.70, outside 0.74.
 *
 * JDK 11 draws a gap before sampling is first enabled from a log2 table not yet filled
 * (sampler_bias.h): ln 2 x 512 KiB x j with probability 2^-j, mean 2 ln 2 x 512 KiB, which
 * the agent weighs the first sample at. That estimate is unbiased for threads allocating
 * much more than the gap; over 1 MB it reads 0.93 +- 0.07 (0.93-1.01 in 4 runs; the ratio
 * 0.83-0.97), weighed at 512 KiB 0.74-0.86, at 16k 0.41-0.46. There the ratio must be above
 * 0.65 (3.6 sigma under 0.93).
 */
public class AttachGapTest {
    static final String PROFILE = "gap.pb.gz";
    static final String ARRAY = "AttachGapWorkload$Rec[]";
    static final double RATIO_BAND = 0.26, NEW_BAND = 0.064, NEW_BAND_BIASED = 0.25;
    static final double RATIO_FLOOR_JDK11 = 0.65;

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent()
                .selfAttach().jvmFlags("-Xmx256m")
                .label("attach-gap")
                .run("AttachGapWorkload", AgentRunner.agentLibrary().toString(),
                        "interval=16k,rate=0,live=false,file=" + PROFILE);
        r.assertNoCrash().assertExitCode(0);
        long truth = (long) AttachGapWorkload.THREADS * AttachGapWorkload.ARRAYS;
        r.assertStdoutContains("objects per site: " + truth);
        Pprof p = AllocProfiles.readProfile(r, PROFILE);
        // The arrays only: the first thread to reach `new Rec[256]` loads the class under
        // that frame, and one 24-byte String sampled there counts 21,846 objects.
        double old = p.sum("alloc_objects", p.allocatedIn(ARRAY, "AttachGapWorkload.allocateInOldThread"))
                / (double) truth;
        double fresh = p.sum("alloc_objects", p.allocatedIn(ARRAY, "AttachGapWorkload.allocateInNewThread"))
                / (double) truth;
        double ratio = old / fresh;
        System.out.printf("estimate / truth: threads older than the attach %.3f, started after "
                + "%.3f; old / new %.3f%n", old, fresh, ratio);
        int feature = AllocProfiles.jdkFeature();
        double newBand = feature >= 25 ? NEW_BAND : NEW_BAND_BIASED;
        if (Math.abs(fresh - 1) > newBand) {
            throw new AssertionError("threads started after the attach: " + fresh + " of their "
                    + "allocations, outside 1 +- " + newBand + "\n" + p.summary(10));
        }
        double low = feature == 11 ? RATIO_FLOOR_JDK11 : 1 - RATIO_BAND;
        if (ratio < low || ratio > 1 + RATIO_BAND) {
            throw new AssertionError("threads running before the attach: " + ratio + " times the "
                    + "estimate of those started after, outside [" + low + ", " + (1 + RATIO_BAND)
                    + "] (is their first sample weighted at the attach's interval rather than the "
                    + "512 KiB HotSpot drew its gap at?)\n" + p.summary(10));
        }
    }
}
