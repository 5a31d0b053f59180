/*
 * @test
 * @summary The budget is the rate, not the interval (issue 25): at the default options a
 *          program that makes the JVM offer 200 samples a second at the default 512k keeps
 *          about the rate (900-1,100 a second) once the cap has lowered the JVM's interval;
 *          the profile says what the interval is and why; the estimates stay within 4 sigma
 *          of the truth across the change
 * @library /lib
 * @build AllocProfiles RateCapTest RateBandWorkload
 * @run driver RateBudgetTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/*
 * Why the band cannot flake. The workload offers 200 a second at 512k (100 MB/s of
 * byte[1000]); its churned and retained arrays share a class and size, so the survival
 * factors favour nothing (the JVM's own survivors in other slots are too few to be judged:
 * HS_SURVIVAL_EVIDENCE in survival.h) and the control aims at offers 1.25 times the rate: it lowers the
 * interval after 2 s of f = 5 by 2^2.75 (to 78 KiB: 1,310 offers a second, f = 0.76) and
 * keeps it there (nothing changes while f stays in [1/2, 1]; were the machine to slow the
 * paced workload by a quarter for two whole seconds, it would lower it once more). From then on
 * the program offers more than the rate, the bucket settles at its reserve and p is set
 * every 20 ms so that it is spent at the rate: kept = 1,000 x the window, plus the change
 * of the bucket over it (it holds 250 +- a few tokens at the reserve). The window is
 * between the periodic dumps at about 12 and 16 s (dump_period=4s), after the change at
 * about 2 s and the loan of the full bucket: 4,000 +- ~100 kept. The loan takes a while
 * when the offers land near the rate: the rounding to whole steps may leave 91 KiB
 * (1,080-1,380 offers a second), and the full bucket's 1,000 tokens above its reserve then
 * last 3-12 s; in a window of 8-12 s one run kept 4,329 (the bucket went from 597 to
 * 268), close to the band's edge.
 * The estimates: as in RateBandTest, an object counts 1/(p_j p_t), p_j at the highest
 * interval of the run (512k) bounds every object's, and the cap's mean 1/p over the offers
 * (which are densest after the change, where p_t is lowest) bounds the mean over the
 * objects: relative variance <= (m / p_j - 1) / n; ~1.4 million byte[1000] churned: 4 sigma
 * ~ 10 %. A weight that ignored the lowered interval reads 8 times high.
 */
public class RateBudgetTest {
    static final long DEFAULT_INTERVAL = 512 * 1024;
    static final double OFFERS = 200;
    static final double SECONDS = 18;
    // Lowered once from the default, or twice: a second step when the survival factors
    // come to favour survivors and the control aims at twice the offers ("lowered from
    // 76 KiB: offers 1375/s under 1.4 x rate 1000/s: too few for the survival factors ...").
    // Never raised again: the selectivity is taken as 1 until 100 survivors (survival.h), so
    // the few survivors of the first seconds, in small slots of high factor, no longer send
    // the control into its selective band and back ("raised from 45 KiB: offers 2285/s over
    // 2 x rate 1000/s", 1 run of 3 on JDK 25 before that rule).
    static final Pattern WHY = Pattern.compile(
            "rate cap: interval (\\d+) KiB \\(lowered from (?:the default )?\\d+ KiB: offers (\\d+)/s "
                    + "under [^)]*rate 1000/s[^)]*\\); it follows the budget between 16 KiB \\(the lowest "
                    + "without interval=\\)");
    static final Pattern INTERVAL_LINE = Pattern.compile(
            "JVM sampling interval (\\d+) \\(configured (\\d+), highest (\\d+)\\), changed (\\d+) times "
                    + "\\((\\d+) raised, (\\d+) lowered\\)");

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=budget.pb.gz,dump_period=4s")
                .label("budget").jvmFlags("-Xmx512m")
                .run("RateBandWorkload", Double.toString(OFFERS), Double.toString(SECONDS),
                        Long.toString(DEFAULT_INTERVAL));
        r.assertNoCrash().assertExitCode(0);
        Matcher w = RateBandWorkload.OUTPUT.matcher(r.stdout);
        if (!w.find()) r.fail("the workload did not report its allocations");
        long size = Long.parseLong(w.group(1)), churn = Long.parseLong(w.group(2)),
                retain = Long.parseLong(w.group(3));
        double active = Double.parseDouble(w.group(4));
        List<String> failures = new ArrayList<>();

        keptRate(r, failures);

        Pprof exit = AllocProfiles.readProfile(r, "budget.pb.gz");
        String comments = String.join("\n", exit.comments);
        Matcher why = find(r, WHY, comments);
        System.out.println("exit profile: " + why.group());
        long lowered = Long.parseLong(why.group(1)) * 1024;
        if (lowered > DEFAULT_INTERVAL / 4) {
            failures.add("the interval was lowered only to " + lowered + ": " + why.group());
        }
        Matcher interval = find(r, INTERVAL_LINE, comments);
        long highest = Long.parseLong(interval.group(3));
        if (highest != DEFAULT_INTERVAL) failures.add("the interval was raised: " + interval.group());
        if (Long.parseLong(interval.group(6)) < 1) failures.add("never lowered: " + interval.group());

        double achieved = (churn + retain) * size / (double) DEFAULT_INTERVAL / active;
        System.out.printf("the workload made the JVM offer %.0f a second at 512k over %.1f s%n",
                achieved, active);
        double m = Double.parseDouble(find(r, RateCapTest.P_COMMENT, comments).group(2));
        double pj = AllocProfiles.samplingProbability(size, highest);
        estimate(exit, "churn", churn, size, m, pj, failures);
        estimate(exit, "retain", retain, size, m, pj, failures);
        if (!failures.isEmpty()) throw new AssertionError(String.join("\n", failures));
    }

    static Matcher find(AgentRunner.Result r, Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) r.fail("no match for " + pattern + " in:\n" + text);
        return m;
    }

    /** The kept rate between the periodic dumps at about 12 and 16 s: 900-1,100 a second. */
    static void keptRate(AgentRunner.Result r, List<String> failures) throws Exception {
        Matcher first = find(r, RateCapTest.KEPT_LINE, comments(r, "budget-3.pb.gz"));
        Matcher second = find(r, RateCapTest.KEPT_LINE, comments(r, "budget-4.pb.gz"));
        long kept = Long.parseLong(second.group(2)) - Long.parseLong(first.group(2));
        double seconds = Double.parseDouble(second.group(4)) - Double.parseDouble(first.group(4));
        double rate = kept / seconds;
        System.out.printf("kept %d in %.2f s between the periodic dumps at %s and %s s: %.1f a second%n",
                kept, seconds, first.group(4), second.group(4), rate);
        if (rate < 900 || rate > 1100) {
            failures.add(String.format("%.1f kept a second between %s and %s s, outside 900-1,100",
                    rate, first.group(4), second.group(4)));
        }
    }

    static String comments(AgentRunner.Result r, String file) throws Exception {
        return String.join("\n", AllocProfiles.readProfile(r, file).comments);
    }

    static void estimate(Pprof p, String site, long objects, long size, double m, double pj,
                         List<String> failures) {
        long estimate = RateCapTest.siteSum(p, "RateBandWorkload." + site, "alloc_space");
        double sigma = Math.sqrt((m / pj - 1) / objects);
        RateCapTest.compare("alloc_space of " + site, estimate, objects * size, sigma, failures);
    }
}
