/*
 * @test
 * @summary peak= (on by default with live=true): the retained set grows to ~200 MB
 *          (keepBig 180 MB + keepSmall 20 MB of byte[10_000]), drops to ~20 MB, and the
 *          program exits: the -peak profile shows both sites as they were at the peak, the
 *          exit profile only the small one; both within 4 sigma of the truth. The peak's
 *          in-use samples carry age_seconds (unit seconds) within the run's duration
 * @requires vm.gc.G1
 * @library /lib /live
 * @build DumpWorkload LiveProfile
 * @run driver PeakTest
 */
import heapsampler.AgentRunner;

public class PeakTest {
    static final long INTERVAL = 32 * 1024;
    static final LiveProfile.Site BIG = new LiveProfile.Site("DumpWorkload.keepBig", "byte[]");
    static final LiveProfile.Site SMALL = new LiveProfile.Site("DumpWorkload.keepSmall", "byte[]");

    public static void main(String[] args) throws Exception {
        long started = System.nanoTime();
        AgentRunner.Result r = AgentRunner
                // rate=0: the 4 sigma are the JVM sampler's; the rate cap adds its own
                // variance (RateCapTest checks estimates under the cap)
                .withAgent("file=heap.pb.gz,interval=" + INTERVAL + ",log=info,rate=0")
                .jvmFlags("-XX:+UseG1GC", "-Xmx512m").label("peak").run("DumpWorkload", "peak");
        r.assertNoCrash().assertExitCode(0);
        double runSeconds = (System.nanoTime() - started) / 1e9;

        LiveProfile peak = LiveProfile.read(r, "heap-peak.pb.gz");
        if (peak.commentsStartingWith("peak: ").isEmpty()) peak.fail("no 'peak:' comment");
        assertSite(peak, BIG, DumpWorkload.PEAK_BIG_MB);
        assertSite(peak, SMALL, DumpWorkload.PEAK_SMALL_MB);
        assertAgeSeconds(peak, BIG, runSeconds);

        LiveProfile exit = LiveProfile.read(r, "heap.pb.gz");
        assertSite(exit, SMALL, DumpWorkload.PEAK_SMALL_MB);
        long bigAtExit = exit.sum("inuse_space", BIG);
        if (bigAtExit != 0) exit.fail(BIG + " still shows " + bigAtExit + " bytes in use at exit");
    }

    /* The peak keeps no GC ages, but each in-use sample of the site has its mean age. */
    static void assertAgeSeconds(LiveProfile p, LiveProfile.Site site, double runSeconds) {
        int inuse = p.pprof.typeIndex("inuse_space");
        for (var s : p.pprof.samples) {
            if (!p.matches(s, site) || s.value(inuse) == 0) continue;
            var label = s.labels().stream().filter(l -> l.key().equals("age_seconds")).findFirst()
                    .orElseThrow(() -> new AssertionError(site + ": an in-use sample without age_seconds"));
            if (!label.numUnit().equals("seconds") || label.num() < 0 || label.num() > Math.ceil(runSeconds)) {
                p.fail(site + ": age_seconds " + label + " (run " + runSeconds + " s)");
            }
            System.out.println(site + " at the peak: age_seconds " + label.num());
        }
    }

    /* The site's in-use estimate is within 4 sigma of what the workload retained. */
    static void assertSite(LiveProfile p, LiveProfile.Site site, int megabytes) {
        long size = p.objectSize(site);
        long count = (((long) megabytes << 20) + DumpWorkload.PEAK_SIZE - 1) / DumpWorkload.PEAK_SIZE;
        long truth = count * size;
        double sigma = LiveProfile.relativeSigma(count, size, INTERVAL);
        p.assertNear(site + " inuse_space", p.sum("inuse_space", site), truth, 4 * sigma * truth);
    }
}
