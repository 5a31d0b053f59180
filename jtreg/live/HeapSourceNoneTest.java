/*
 * @test
 * @summary heap_source=none: the heap figure is unknown, so the in-use estimates are
 *          reported unscaled in both live_scale modes: no residual pseudo-site, factor 1,
 *          each site its own unbiased estimate, the total their sum
 * @library /lib
 * @build LiveWorkload
 * @run driver HeapSourceNoneTest
 */
import heapsampler.AgentRunner;

import java.util.List;

public class HeapSourceNoneTest {
    static final long INTERVAL = 8 * 1024;
    static final String PROFILE = "none.pb.gz";
    static final LiveProfile.Site RETAIN_A = new LiveProfile.Site("LiveWorkload.retainA", "byte[]");
    static final LiveProfile.Site RETAIN_B = new LiveProfile.Site("LiveWorkload.retainB",
            "LiveWorkload$Node");

    public static void main(String[] args) throws Exception {
        for (String mode : List.of("residual", "proportional")) {
            check(mode);
        }
    }

    static void check(String mode) throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("heap_source=none,rate=0,live_scale=" + mode + ",interval=" + INTERVAL
                        + ",log=info,file=" + PROFILE)
                .jvmFlags("-Xmx512m").label("none-" + mode).run("LiveWorkload", "plain");
        r.assertNoCrash().assertExitCode(0);
        r.assertAgentLine("heap source none");
        LiveProfile.weakRefs(r).assertBalanced(r);

        LiveProfile p = LiveProfile.read(r, PROFILE);
        LiveProfile.GcComment g = p.gcComment();
        if (g.heapKnown() || g.heapBytes() != 0 || !g.source().equals("none")) {
            p.fail("expected \"unknown, 0 bytes (source none)\": " + g);
        }
        LiveProfile.InuseComment in = p.inuseComment();
        if (!in.mode().equals(mode) || in.factor() != 1.0 || in.residualBytes() != 0
                || !in.unscaledNote()) {
            p.fail("expected live_scale=" + mode + ", factor 1, no residual, and the note that"
                    + " estimates are unscaled: " + in);
        }
        if (p.residualBytes() != -1) p.fail("residual pseudo-site present");

        // The total is the sum of the unscaled estimates (rounding preserves the sum), less
        // what the in-use <= alloc cap took off sites: with the heap unknown there is no
        // residual site to move it to, and the comment says how much that was.
        java.util.regex.Matcher capped = java.util.regex.Pattern
                .compile("; (\\d+) bytes taken off sites").matcher(p.comment("inuse: "));
        if (!capped.find()) p.fail("no capped bytes in the inuse comment");
        long expected = in.rawBytes() - Long.parseLong(capped.group(1));
        long total = p.total("inuse_space");
        if (Math.abs(total - expected) > 1) {
            p.fail("total inuse_space " + total + " is not the estimate " + in.rawBytes()
                    + " less the capped " + capped.group(1));
        }
        checkUnscaled(p, RETAIN_A, LiveWorkload.A_COUNT);
        checkUnscaled(p, RETAIN_B, LiveWorkload.B_COUNT);
    }

    /** Within four sigma of the truth, and equal to the site's allocation estimate. */
    static void checkUnscaled(LiveProfile p, LiveProfile.Site site, long count) {
        long size = p.objectSize(site);
        long truth = count * size;
        double sigma = LiveProfile.relativeSigma(count, size, INTERVAL);
        long inuse = p.sum("inuse_space", site);
        p.assertNear(site + " inuse_space", inuse, truth, 4 * sigma * truth + 64);
        long alloc = p.sum("alloc_space", site);
        if (Math.abs(inuse - alloc) > 64 + alloc / 1000) {
            p.fail(site + ": inuse_space " + inuse + " differs from alloc_space " + alloc);
        }
    }
}
