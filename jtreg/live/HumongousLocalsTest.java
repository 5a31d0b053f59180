/*
 * @test
 * @summary G1 humongous arrays are tracked without references: those held only by main's
 *          locals at exit are in use exactly, the garbage ones are not, and no weak ref was
 *          taken for them
 * @requires vm.gc.G1
 * @library /lib
 * @build HumongousLocals
 * @run driver HumongousLocalsTest
 */
import heapsampler.AgentRunner;

public class HumongousLocalsTest {
    static final String PROFILE = "humongous.pb.gz";
    static final LiveProfile.Site KEPT = new LiveProfile.Site("HumongousLocals.keep", "byte[]");
    static final LiveProfile.Site DROPPED = new LiveProfile.Site("HumongousLocals.drop", "byte[]");

    public static void main(String[] args) throws Exception {
        // At a 64k interval an array of 1.1 MB is sampled with probability 1 - e^-16.8:
        // every array is sampled and each counts exactly once, so the checks are exact.
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=64k,rate=0,log=info,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-XX:G1HeapRegionSize=1m", "-Xmx512m")
                .label("humongous-locals").run("HumongousLocals");
        r.assertNoCrash().assertExitCode(0);
        LiveProfile p = LiveProfile.read(r, PROFILE);
        long size = p.objectSize(KEPT);
        // Each sample is scaled by 1/p = 1 + 5e-8: the expected figure, to the byte.
        double expected = HumongousLocals.KEPT * size / LiveProfile.sampleProbability(size, 64 * 1024);
        if (Math.abs(p.sum("inuse_space", KEPT) - expected) > 1)
            p.fail(KEPT + " in use " + p.sum("inuse_space", KEPT) + ", expected " + expected
                    + " (" + HumongousLocals.KEPT + " x " + size + ", unbiased)");
        if (p.sum("inuse_space", DROPPED) != 0)
            p.fail(DROPPED + " is garbage, yet in use " + p.sum("inuse_space", DROPPED));
        if (p.sum("alloc_objects", DROPPED) != HumongousLocals.DROPPED)
            p.fail(DROPPED + " allocated " + p.sum("alloc_objects", DROPPED) + " objects, expected "
                    + HumongousLocals.DROPPED);
        if (p.commentsStartingWith("G1 humongous objects: ").isEmpty())
            p.fail("no 'G1 humongous objects' comment");
        // No weak refs for humongous objects: far fewer than the 212 arrays sampled.
        LiveProfile.WeakRefs refs = LiveProfile.weakRefs(r);
        refs.assertBalanced(r);
        if (refs.created() >= HumongousLocals.KEPT + HumongousLocals.DROPPED)
            r.fail(refs.created() + " weak refs created: humongous arrays got weak refs");
        System.out.println("humongous: kept " + p.sum("inuse_space", KEPT) + " bytes in use, "
                + refs.created() + " weak refs");
    }
}
