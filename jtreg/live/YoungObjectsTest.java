/*
 * @test id=G1
 * @summary Objects allocated after the last GC are not in use yet (Go's "as of the last
 *          GC"): a set retained after the program's final System.gc() has allocations but
 *          no in-use bytes, while the set retained before it is fully counted
 * @requires vm.gc.G1
 * @library /lib
 * @build LiveWorkload
 * @run driver YoungObjectsTest G1
 */
/*
 * @test id=Parallel
 * @summary The same under the Parallel collector (heap figure from GcInfo)
 * @requires vm.gc.Parallel
 * @library /lib
 * @build LiveWorkload
 * @run driver YoungObjectsTest Parallel
 */
import heapsampler.AgentRunner;

public class YoungObjectsTest {
    static final long INTERVAL = 8 * 1024;
    static final String PROFILE = "young.pb.gz";
    static final LiveProfile.Site YOUNG = new LiveProfile.Site("LiveWorkload.retainYoung", "byte[]");
    static final LiveProfile.Site OLD = new LiveProfile.Site("LiveWorkload.retainA", "byte[]");

    public static void main(String[] args) throws Exception {
        String gc = args[0];
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=" + INTERVAL + ",rate=0,log=info,file=" + PROFILE)
                .jvmFlags("-XX:+Use" + gc + "GC", "-Xmx512m", "-Xms512m")
                .label("young-" + gc).run("LiveWorkload", "young");
        r.assertNoCrash().assertExitCode(0);
        // The premise: no collection ran while the young set was allocated (2 MB in a heap
        // just emptied by a full GC). If one did, those objects would rightly be in use.
        long collections = youngPhaseCollections(r);
        if (collections != 0) r.fail(collections + " GC(s) ran during the young phase");
        LiveProfile.weakRefs(r).assertBalanced(r);

        LiveProfile p = LiveProfile.read(r, PROFILE);
        long size = p.objectSize(YOUNG);

        // Allocated: the unbiased estimate of YOUNG_COUNT arrays, within four sigma.
        long truth = LiveWorkload.YOUNG_COUNT * size;
        double sigma = LiveProfile.relativeSigma(LiveWorkload.YOUNG_COUNT, size, INTERVAL);
        p.assertNear(YOUNG + " alloc_space", p.sum("alloc_space", YOUNG), truth,
                4 * sigma * truth);
        // Alive, reachable, tracked - but born after the last GC: not in use.
        if (p.sum("inuse_space", YOUNG) != 0 || p.sum("inuse_objects", YOUNG) != 0) {
            p.fail(YOUNG + " was allocated after the last GC, yet has inuse_space "
                    + p.sum("inuse_space", YOUNG));
        }
        // Their samples are in the table, not lost: the table holds at least the young
        // samples plus the old retained ones (every sample of both is alive at exit).
        double youngSamples = p.sum("alloc_objects", YOUNG)
                * LiveProfile.sampleProbability(size, INTERVAL);
        double oldSamples = p.sum("inuse_objects", OLD)
                * LiveProfile.sampleProbability(p.objectSize(OLD), INTERVAL);
        long entries = p.trackingComment().entries();
        System.out.printf("table: %d entries; young samples %.1f, old retainA samples %.1f%n",
                entries, youngSamples, oldSamples);
        if (entries < Math.round(youngSamples + oldSamples)) {
            p.fail("the table has " + entries + " entries, fewer than the young and old samples");
        }

        // The set retained before the last GC is in use, as estimated.
        long oldTruth = LiveWorkload.A_COUNT * p.objectSize(OLD);
        double oldSigma = LiveProfile.relativeSigma(LiveWorkload.A_COUNT, p.objectSize(OLD), INTERVAL);
        p.assertNear(OLD + " inuse_space", p.sum("inuse_space", OLD), oldTruth,
                4 * oldSigma * oldTruth);
    }

    static long youngPhaseCollections(AgentRunner.Result r) {
        for (String line : r.stdout.split("\n")) {
            if (line.startsWith(LiveWorkload.YOUNG_LINE)) {
                return Long.parseLong(line.substring(LiveWorkload.YOUNG_LINE.length()).trim());
            }
        }
        r.fail("the program printed no \"" + LiveWorkload.YOUNG_LINE + "\" line");
        return -1;
    }
}
