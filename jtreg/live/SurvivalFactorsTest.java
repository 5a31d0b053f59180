/*
 * @test
 * @summary Survival factors (survival=true, the default) in a real JVM: under a rate cap
 *          that keeps a small fraction of the offers, the agent learns from its sweeps
 *          that the retained site's arrays survive and the garbage's do not, keeps
 *          several times more samples of the live set than survival=false at the same
 *          kept rate, and the retained site's in-use estimate stays within 4 sigma of
 *          the truth; G1 humongous arrays, tracked without references, teach the
 *          factors their outcomes at the dump's heap walk
 * @library /lib /alloc
 * @build AllocProfiles SurvivalWorkload HumongousLocals
 * @run driver SurvivalFactorsTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/*
 * The workload (SurvivalWorkload, 8 s, -Xmx32m: a young GC every second or less): ~20 MB/s
 * of byte[2000] garbage and ~1 MB/s of byte[3000] retained, different size classes, so
 * different slots of the factor table. At interval=16k the JVM offers ~1,250 garbage and ~60 retained samples a second; the cap
 * (rate=100/s, adapt_interval=false so that the JVM's interval stays put and p alone does
 * the work) keeps p ~ 0.076 of them without factors. With factors, once the first GCs have
 * told the retained slot's samples survive (factor ~8) and the garbage's die (~1), the
 * offered mass is ~1,250 + 8 x 60 a second, p ~ 0.058, and a retained offer is kept with
 * 1 - (1 - p)^8 ~ 0.38: about 5 times p. The live table's survivors at the last GC (the
 * profile's "for N surviving samples") are then 3-5 times as many (less the first second
 * or so, before anything is learned, and the bucket's loan at startup, kept at p = 1 either
 * way); asserted: at least 1.5 times, with the kept rates within 20 % of each other. Seen:
 * ~40-57 survivors without factors, ~120-155 with them (their Poisson sigmas ~7 and ~12:
 * a ratio under 1.5 is a 5-sigma event for a correct agent; without factors it is 1).
 * The estimate: an object counts 1/(p_j q), p_j = 1 - exp(-3016/16384) = 0.17, so for n
 * retained arrays the relative variance is (mean of 1/q over them / p_j - 1) / n. The
 * retained site allocates steadily and its q is at least the p of its moment (a factor only
 * raises it), so its mean of 1/q is at most the mean over all offers, m, which the cap
 * reports ("1/p over the offers m on average"): relative variance <= (m / p_j - 1) / n
 * (~2,400 arrays, m ~ 15: 4 sigma ~ 90 %, which still catches weights that ignore q).
 */
public class SurvivalFactorsTest {
    static final Pattern SURVIVING = Pattern.compile("for (\\d+) surviving samples");
    static final Pattern KEPT = Pattern.compile("effective rate ([0-9.]+) kept/s");
    static final Pattern MEAN = Pattern.compile("1/p over the offers ([0-9.e+-]+) on average");
    static final Pattern FACTORS = Pattern.compile("highest now ([0-9.]+)\\), learned from (\\d+) tracked");
    static final Pattern RETAINED = Pattern.compile("retained=(\\d+)");
    static final Pattern HUMONGOUS = Pattern.compile(
            "humongous: .* (\\d+) survival outcomes learned \\((\\d+) survived\\)");

    record Run(String comments, long retained, Pprof profile, AgentRunner.Result result) {
        String find(Pattern pattern, int group) {
            Matcher m = pattern.matcher(comments);
            if (!m.find()) result.fail("no match for " + pattern + " in the comments:\n" + comments);
            return m.group(group);
        }
    }

    static Run run(String survival) throws Exception {
        String label = "survival-" + survival;
        AgentRunner.Result r = AgentRunner.withAgent("interval=16k,rate=100/s,adapt_interval=false,survival="
                        + survival + ",file=" + label + ".pb.gz")
                .label(label).jvmFlags("-Xmx32m", "-XX:+UseG1GC").run("SurvivalWorkload", "8");
        r.assertNoCrash().assertExitCode(0);
        Matcher m = RETAINED.matcher(r.stdout);
        if (!m.find()) r.fail("the workload did not report what it retained");
        Pprof p = AllocProfiles.readProfile(r, label + ".pb.gz");
        return new Run(String.join("\n", p.comments), Long.parseLong(m.group(1)), p, r);
    }

    public static void main(String[] args) throws Exception {
        Run on = run("true"), off = run("false");
        long survivorsOn = Long.parseLong(on.find(SURVIVING, 1));
        long survivorsOff = Long.parseLong(off.find(SURVIVING, 1));
        double keptOn = Double.parseDouble(on.find(KEPT, 1)), keptOff = Double.parseDouble(off.find(KEPT, 1));
        double highest = Double.parseDouble(on.find(FACTORS, 1));
        System.out.printf("survivors tracked at the last GC: %d with factors, %d without; kept %.1f/s and "
                + "%.1f/s; highest factor %.2f%n", survivorsOn, survivorsOff, keptOn, keptOff, highest);
        if (!off.comments.contains("survival factors: off")) off.result.fail("survival=false: factors not off");
        if (highest < 4) on.result.fail("the retained slot's factor stayed at " + highest);
        if (Math.abs(keptOn - keptOff) > 0.2 * keptOff) {
            on.result.fail(String.format("kept rates differ: %.1f/s with factors, %.1f/s without", keptOn, keptOff));
        }
        if (survivorsOn < 1.5 * survivorsOff) {
            on.result.fail("survivors tracked: " + survivorsOn + " with factors, not 1.5 times the "
                    + survivorsOff + " without");
        }
        checkEstimate("survival=true", on);
        checkEstimate("survival=false", off);
        humongousOutcomes();
    }

    /**
     * G1 humongous arrays (HumongousLocals, 1 MiB regions) have no weak ref for the sweeper
     * to see cleared: their outcomes are learned at the exit dump's heap walk, its first.
     * At a 64k interval each 1.1 MB array is sampled with probability 1 - e^-16.8, and a
     * cap of 10^6/s keeps every sample, so all are tracked: the KEPT arrays main holds
     * lived through its two System.gc() calls at least (survived), the DROPPED garbage is
     * gone (died young). Exact, like HumongousLocalsTest's counts.
     */
    static void humongousOutcomes() throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=64k,rate=1000000/s,log=debug,file=humongous-survival.pb.gz")
                .jvmFlags("-XX:+UseG1GC", "-XX:G1HeapRegionSize=1m", "-Xmx512m")
                .label("humongous-survival").run("HumongousLocals");
        r.assertNoCrash().assertExitCode(0);
        Matcher m = HUMONGOUS.matcher(r.stderr);
        if (!m.find()) r.fail("no humongous walk taught survival outcomes");
        long learned = Long.parseLong(m.group(1)), survived = Long.parseLong(m.group(2));
        System.out.printf("humongous: %d outcomes learned at the dump, %d survived%n", learned, survived);
        if (survived != HumongousLocals.KEPT || learned - survived != HumongousLocals.DROPPED) {
            r.fail(String.format("humongous outcomes: %d survived, %d died young; expected %d and %d",
                    survived, learned - survived, HumongousLocals.KEPT, HumongousLocals.DROPPED));
        }
    }

    /** The retained site's in-use bytes within 4 sigma of the truth. */
    static void checkEstimate(String label, Run run) {
        double pj = AllocProfiles.samplingProbability(3016, 16384);
        double m = Double.parseDouble(run.find(MEAN, 1));
        double n = run.retained;
        double sigma = Math.sqrt((m / pj - 1) / n);
        double truth = n * 3016;
        long inUse = run.profile.sum("inuse_space", s -> run.profile.hasFrame(s, "SurvivalWorkload.retain"));
        System.out.printf("%s: retain in use %d bytes, truth %.0f (ratio %.3f, 4 sigma %.3f)%n",
                label, inUse, truth, inUse / truth, 4 * sigma);
        if (Math.abs(inUse / truth - 1) > 4 * sigma) {
            run.result.fail(String.format("%s: retain in use %d bytes, truth %.0f: beyond 4 sigma (%.3f)",
                    label, inUse, truth, 4 * sigma));
        }
    }
}
