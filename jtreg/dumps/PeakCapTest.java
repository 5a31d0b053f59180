/*
 * @test
 * @summary The peak at the default rate cap (issue 17): a 200 MB retained set (keepBig 180 MB
 *          + keepSmall 20 MB of byte[10_000]) grown in one burst at interval=64k, where the
 *          old 200 ms windows stepped p down to 0.005, is estimated within 4 sigma of the
 *          truth in the -peak profile, sigma including the cap's own variance and the
 *          JVM's interval raised by the burst (the ratio to the truth is printed:
 *          docs/production.md's spread over many runs comes from repeating this run)
 * @requires vm.gc.G1
 * @library /lib /live
 * @build DumpWorkload LiveProfile PeakTest
 * @run driver PeakCapTest
 */
import heapsampler.AgentRunner;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/*
 * Sigma: an object counts 1/(p_j p_t) (RateCapTest); a burst meets the probabilities of its
 * own moments, and two bounds hold whatever they were: c = mean(1/p_t - 1) over the site's
 * offers is at most 1/p_low - 1 (p_low reported), and at most N (m - 1) / (n p_j) (N offers
 * in the run, m the mean of 1/p_t over them, both reported). The tighter one is used.
 * p_j is the JVM's probability at the highest interval of the run, which bounds every
 * object's: the burst offers over 8 times the rate, so the interval control raises the
 * interval within its first 100 ms (64k to 431-861 KiB), and most of the 200 MB is sampled
 * there. A p_j at 64k understated sigma about twofold: it printed 2.0 % for keepBig, whose
 * ratio spread by 4.0 % over 30 runs on JDK 17 (3.5-5.1 % on JDK 25), and one CI run read
 * +14 %. This bound gives 7-10 %: loose, but a weight that ignored the raised interval
 * would read 7-13 times low.
 */
public class PeakCapTest {
    static final long INTERVAL = 64 * 1024;
    static final Pattern OFFERS = Pattern.compile("rate cap: (\\d+) samples offered, (\\d+) kept");
    static final Pattern P = Pattern.compile(
            "lowest ([0-9.e+-]+), 1/p over the offers ([0-9.e+-]+) on average");
    static final Pattern HIGHEST = Pattern.compile(
            "JVM sampling interval \\d+ \\(configured \\d+, highest (\\d+)\\)");

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("file=heap.pb.gz,interval=" + INTERVAL + ",log=info")
                .jvmFlags("-XX:+UseG1GC", "-Xmx512m").label("peak-cap").run("DumpWorkload", "peak");
        r.assertNoCrash().assertExitCode(0);
        LiveProfile peak = LiveProfile.read(r, "heap-peak.pb.gz");
        if (peak.commentsStartingWith("peak: ").isEmpty()) peak.fail("no 'peak:' comment");
        String comments = String.join("\n", peak.pprof.comments);
        Matcher o = OFFERS.matcher(comments), p = P.matcher(comments), h = HIGHEST.matcher(comments);
        if (!o.find() || !p.find() || !h.find()) peak.fail("no rate cap comments in the peak profile");
        long offered = Long.parseLong(o.group(1)), highest = Long.parseLong(h.group(1));
        double lowest = Double.parseDouble(p.group(1)), mean = Double.parseDouble(p.group(2));
        System.out.println("peak: " + o.group() + "; " + p.group() + "; " + h.group());

        long truthTotal = 0, estimateTotal = 0;
        double varianceTotal = 0;
        for (var entry : new Object[][] {{PeakTest.BIG, DumpWorkload.PEAK_BIG_MB},
                {PeakTest.SMALL, DumpWorkload.PEAK_SMALL_MB}}) {
            LiveProfile.Site site = (LiveProfile.Site) entry[0];
            int megabytes = (Integer) entry[1];
            long size = peak.objectSize(site);
            long count = (((long) megabytes << 20) + DumpWorkload.PEAK_SIZE - 1) / DumpWorkload.PEAK_SIZE;
            double pj = LiveProfile.sampleProbability(size, highest);
            double c = Math.min(1 / lowest - 1, offered * (mean - 1) / (count * pj));
            double sigma = Math.sqrt(((1 / pj - 1) + c / pj) / count);
            long truth = count * size, estimate = peak.sum("inuse_space", site);
            System.out.printf("%s at the peak: ratio %.4f (sigma %.2f %%)%n", site,
                    (double) estimate / truth, 100 * sigma);
            peak.assertNear(site + " inuse_space", estimate, truth, 4 * sigma * truth);
            truthTotal += truth;
            estimateTotal += estimate;
            varianceTotal += sigma * sigma * truth * truth;
        }
        System.out.printf("retained set at the peak: ratio %.4f (sigma %.2f %%)%n",
                (double) estimateTotal / truthTotal, 100 * Math.sqrt(varianceTotal) / truthTotal);
    }
}
