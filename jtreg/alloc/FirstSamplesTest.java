/*
 * @test
 * @summary Threads that exist before the agent starts sampling (main) sample at the
 *          configured interval from their first allocation on, not after a first gap
 *          drawn at the JVM's default interval of 512 KiB
 * @library /lib
 * @build AllocProfiles RateWorkload
 * @run driver FirstSamplesTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

/*
 * HotSpot draws each thread's first sampling gap when it creates the thread, with the
 * interval in force at that moment, and uses a new interval only from the thread's next
 * sample on. The main thread is created after Agent_OnLoad and before VMInit: if the
 * agent sets the interval only at VMInit, main's first gap has the default mean of
 * 512 KiB whatever interval= says. At small intervals main's first ~512 KiB then go
 * unsampled (SampleRateTest saw 2 to 7 % fewer samples than expected in a 16 MB run at
 * interval=1k); at large intervals main gets a sample far too early.
 *
 * The large-interval side is the sharp test: at interval=1g a JVM whose threads allocate
 * a few MB in all should record a sample with probability of about (bytes allocated) /
 * 1 GiB, under 0.5 %; with a 512 KiB first gap, main records one with probability near 1
 * (measured: 17 of 20 runs on JDKs 17 and 25). The test runs 3 JVMs and fails if 2 or
 * more recorded a sample: a correct agent fails that way with probability below
 * 3 x 0.005^2 < 0.01 %, the flaw above is caught about 97 % of the time.
 */
public class FirstSamplesTest {
    static final int RUNS = 3;

    public static void main(String[] args) throws Exception {
        int withSamples = 0;
        StringBuilder seen = new StringBuilder();
        for (int run = 0; run < RUNS; run++) {
            AgentRunner.Result r = AgentRunner.withAgent("interval=1g,live=false,file=first.pb.gz")
                    .label("interval-1g").jvmFlags("-Xmx64m").run("RateWorkload", "1024", "0");
            r.assertNoCrash().assertExitCode(0);
            Pprof p = AllocProfiles.readProfile(r, "first.pb.gz");
            long recorded = AllocProfiles.sampleCounts(p).recorded();
            if (recorded > 0) {
                withSamples++;
                seen.append("\nrun ").append(run).append(": ").append(p.summary(5));
            }
        }
        System.out.println(withSamples + " of " + RUNS + " runs recorded a sample" + seen);
        if (withSamples >= 2) {
            throw new AssertionError(withSamples + " of " + RUNS + " JVMs recorded a sample at "
                    + "interval=1g after allocating a few MB: the main thread's first sampling "
                    + "gap was not drawn at the configured interval (is the interval set only at "
                    + "VMInit instead of in Agent_OnLoad?)" + seen);
        }
    }
}
