/*
 * @test
 * @summary When young GCs come hundreds a second the sweeper follows them at most about
 *          ten times a second (sweep_pace.h), and the live view is unchanged by it: the
 *          retained set is in use as estimated, the garbage is not, and every weak ref is
 *          released; the defaults' rate cap, an explicit interval of 64k
 * @requires vm.gc.G1
 * @library /lib
 * @build FastGcWorkload LiveWorkload
 * @run driver SweepPaceTest
 */
import heapsampler.AgentRunner;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class SweepPaceTest {
    static final long INTERVAL = 64 * 1024;
    static final double SECONDS = 4;
    static final String PROFILE = "pace.pb.gz";
    static final LiveProfile.Site RETAIN = new LiveProfile.Site("FastGcWorkload.retain", "byte[]");
    static final LiveProfile.Site CHURN = new LiveProfile.Site("FastGcWorkload.churn", "byte[]");
    static final Pattern SWEEPS = Pattern.compile("(\\d+) sweeps of the table after GCs");
    static final Pattern MARKINGS = Pattern.compile("(\\d+) markings seen");

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=" + (INTERVAL / 1024) + "k,log=info,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xmx256m", "-Xms256m", "-Xmn8m")
                .label("pace").run("FastGcWorkload", Double.toString(SECONDS));
        double elapsed = (System.nanoTime() - start) / 1e9;
        r.assertNoCrash().assertExitCode(0);
        LiveProfile.weakRefs(r).assertBalanced(r);
        LiveProfile p = LiveProfile.read(r, PROFILE);

        // The premise: GCs came much faster than ten a second, or this test judges nothing.
        long gcs = p.inuseComment().epoch();
        long sweeps = find(p, SWEEPS, p.comment("live tracking: "));
        long markings = find(p, MARKINGS, p.comment("liveness: "));
        System.out.printf("%d GC epochs, %d sweeps after GCs, %d markings in %.1f s%n", gcs,
                sweeps, markings, elapsed);
        if (gcs < 30 * SECONDS) p.fail("only " + gcs + " GCs: the premise (fast GCs) failed");
        // At most one sweep per 100 ms of the run, plus one per marking (never held), plus
        // the first two of a burst (the second starts the hold): without the pace there is
        // one per GC.
        long most = (long) Math.ceil(elapsed * 10) + markings + 2;
        if (sweeps > most) {
            p.fail(sweeps + " sweeps for " + gcs + " GCs in " + String.format("%.1f", elapsed)
                    + " s: more than one per 100 ms (" + most + " at most)");
        }
        if (sweeps < 2) p.fail("the sweeper swept " + sweeps + " times");

        // The live view: the retained arrays in use within four sigma, the garbage not.
        long size = p.objectSize(RETAIN);
        long truth = FastGcWorkload.KEPT * size;
        double sigma = LiveProfile.relativeSigma(FastGcWorkload.KEPT, size, INTERVAL);
        p.assertNear(RETAIN + " inuse_space", p.sum("inuse_space", RETAIN), truth,
                4 * sigma * truth);
        long churnInuse = p.sum("inuse_space", CHURN);
        if (churnInuse > truth / 20) {
            p.fail(CHURN + " has " + churnInuse + " bytes in use: garbage counted as live");
        }
    }

    static long find(LiveProfile p, Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) p.fail("no match for " + pattern + " in " + text);
        return Long.parseLong(m.group(1));
    }
}
