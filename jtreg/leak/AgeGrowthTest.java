/*
 * @test
 * @summary Leak hunting: the gc_age label splits an old growing cache from young churn
 *          (old bytes under the cache's site only), `go tool pprof -tagfocus=gc_age=8:`
 *          keeps only the old ones, and the `suspect:` line names the cache with its
 *          growth within 15 %; the age_seconds label (unit seconds, the mean age in
 *          seconds) is larger on the cache's oldest gc_age bucket than on the churn, and
 *          within the run's duration
 * @requires vm.gc.G1
 * @library /lib
 * @build LeakWorkload
 * @run driver AgeGrowthTest
 */
import heapsampler.AgentRunner;
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class AgeGrowthTest {
    static final long INTERVAL = 16 * 1024;
    static final String PROFILE = "leak.pb.gz";
    static final String CACHE = "LeakWorkload.cachePut";
    static final String CHURN = "LeakWorkload.churn";
    /** Pause after each of the workload's steps: the cache's old objects are then seconds
     *  older than the churn (adds STEPS * 0.6 s to the run). */
    static final long STEP_PAUSE_MS = 600;
    static final Pattern SUSPECT = Pattern.compile(
            "suspect: (\\S+):\\d+ \\((\\S+)\\) \\+([0-9.]+) MB over (\\d+) GCs ±([0-9.]+) MB");

    public static void main(String[] args) throws Exception {
        // A young generation large enough that the program's System.gc() calls are the
        // only collections: GC epoch k then follows step k, and ages are known exactly.
        long started = System.nanoTime();
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=" + INTERVAL + ",log=info,rate=0,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xmx512m", "-Xms512m", "-Xmn300m")
                .label("leak-age-growth").run("LeakWorkload", Long.toString(STEP_PAUSE_MS));
        double runSeconds = (System.nanoTime() - started) / 1e9;
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(LeakWorkload.DONE_LINE);
        Pprof p = Pprof.read(r.file(PROFILE)).validate();
        String epochComment = p.comments.stream().filter(c -> c.startsWith("inuse: as of the last GC"))
                .findFirst().orElseThrow(() -> new AssertionError("no inuse comment: " + p.comments));
        if (!epochComment.contains("(epoch " + LeakWorkload.STEPS + ")")) {
            r.fail("premise: only the program's " + LeakWorkload.STEPS + " GCs should run: " + epochComment);
        }
        checkAges(r, p);
        checkAgeSeconds(r, p, runSeconds);
        checkSuspect(r, p);
        checkGoTagFocus(r);
    }

    static long gcAge(Pprof.Sample s) {
        return s.labels().stream().filter(l -> l.key().equals("gc_age")).mapToLong(Pprof.Label::num)
                .findFirst().orElse(0);
    }

    /** The byte[] arrays allocated directly by `method` (not the lists' own arrays). */
    static Predicate<Pprof.Sample> site(Pprof p, String method) {
        return s -> {
            var names = p.stackNames(s);
            return names.size() > 1 && names.get(0).equals("byte[]") && names.get(1).equals(method);
        };
    }

    static long objectSize(Pprof p, String method) {
        return p.samples.stream().filter(site(p, method)).flatMap(s -> s.labels().stream())
                .filter(l -> l.key().equals("bytes")).mapToLong(Pprof.Label::num).max().orElse(0);
    }

    /** Relative standard deviation of an estimate over n objects of `size` bytes. */
    static double relativeSigma(long n, long size) {
        double prob = 1 - Math.exp(-(double) size / INTERVAL);
        return Math.sqrt((1 - prob) / (n * prob));
    }

    static void checkAges(AgentRunner.Result r, Pprof p) {
        Predicate<Pprof.Sample> cache = site(p, CACHE);
        Predicate<Pprof.Sample> churn = site(p, CHURN);
        Predicate<Pprof.Sample> old = s -> gcAge(s) >= 8;
        long size = objectSize(p, CACHE);
        // Step k's arrays were born at epoch k-1: at epoch STEPS they survived STEPS-k+1 GCs,
        // so 8 or more for the first STEPS-7 steps.
        long oldCount = (long) (LeakWorkload.STEPS - 7) * LeakWorkload.CACHE_PER_STEP;
        long truth = oldCount * size;
        long oldCache = p.sum("inuse_space", cache.and(old));
        double tolerance = 4 * relativeSigma(oldCount, size) * truth;
        System.out.printf("cache in use at gc_age>=8: %d bytes, truth %d (±%.0f)%n", oldCache, truth, tolerance);
        if (Math.abs(oldCache - truth) > tolerance) {
            r.fail("cache bytes older than 8 GCs: " + oldCache + ", expected " + truth + " ± " + tolerance);
        }
        long youngChurn = p.sum("inuse_space", churn.and(s -> gcAge(s) == 1));
        long oldChurn = p.sum("inuse_space", churn.and(s -> gcAge(s) > 1));
        System.out.printf("churn in use: %d bytes at gc_age 1, %d older%n", youngChurn, oldChurn);
        if (youngChurn <= 0 || oldChurn != 0) {
            r.fail("churn should be in use only at gc_age 1: " + youngChurn + " / " + oldChurn);
        }
        // The convention: within a site whose in-use total does not exceed its allocation
        // (rounding can make it exceed by a byte; that is the site's figure, not the split),
        // no sample claims more in use than allocated.
        int inuse = p.typeIndex("inuse_space"), alloc = p.typeIndex("alloc_space");
        var siteInuse = p.sumByStack("inuse_space");
        var siteAlloc = p.sumByStack("alloc_space");
        for (Pprof.Sample s : p.samples) {
            var stack = p.stackNames(s);
            if (siteInuse.get(stack) <= siteAlloc.get(stack) && s.value(inuse) > s.value(alloc)) {
                r.fail("a sample of " + stack + " has inuse " + s.value(inuse) + " > alloc " + s.value(alloc));
            }
        }
    }

    /** The age_seconds label of a sample, checked to be in seconds; null when absent. */
    static Long ageSeconds(AgentRunner.Result r, Pprof.Sample s) {
        for (Pprof.Label l : s.labels()) {
            if (!l.key().equals("age_seconds")) continue;
            if (!l.numUnit().equals("seconds")) r.fail("age_seconds has unit '" + l.numUnit() + "'");
            return l.num();
        }
        return null;
    }

    /** The inuse-weighted mean of age_seconds over the samples `which` selects. */
    static double meanAgeSeconds(AgentRunner.Result r, Pprof p, Predicate<Pprof.Sample> which) {
        int inuse = p.typeIndex("inuse_space");
        double weighted = 0, bytes = 0;
        for (Pprof.Sample s : p.samples) {
            Long age = ageSeconds(r, s);
            if (!which.test(s) || age == null) continue;
            weighted += (double) age * s.value(inuse);
            bytes += s.value(inuse);
        }
        if (bytes == 0) r.fail("no in-use sample with age_seconds");
        return weighted / bytes;
    }

    static void checkAgeSeconds(AgentRunner.Result r, Pprof p, double runSeconds) {
        int inuse = p.typeIndex("inuse_space");
        for (Pprof.Sample s : p.samples) { // the label exactly where an age sample holds in-use bytes
            boolean aged = gcAge(s) > 0 && s.value(inuse) > 0;
            if (aged != (ageSeconds(r, s) != null)) {
                r.fail("age_seconds on " + p.stackNames(s) + " (gc_age " + gcAge(s) + ", inuse "
                        + s.value(inuse) + "): " + ageSeconds(r, s));
            }
        }
        long oldest = p.samples.stream().filter(site(p, CACHE)).mapToLong(AgeGrowthTest::gcAge).max().orElse(0);
        double cache = meanAgeSeconds(r, p, site(p, CACHE).and(s -> gcAge(s) == oldest));
        double churn = meanAgeSeconds(r, p, site(p, CHURN));
        System.out.printf("age_seconds: cache at gc_age %d %.1f s, churn %.1f s, run %.1f s%n",
                oldest, cache, churn, runSeconds);
        // Steps 1..5 (gc_age >= 8) end about 7 pauses before the churn's last step.
        if (cache <= churn) r.fail("the cache's oldest objects are not older than the churn");
        if (cache > Math.ceil(runSeconds)) r.fail("age_seconds " + cache + " exceeds the run's " + runSeconds + " s");
    }

    static void checkSuspect(AgentRunner.Result r, Pprof p) {
        String line = r.agentLines().stream().filter(l -> l.contains("suspect: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no suspect line\n" + r.describe()));
        Matcher m = SUSPECT.matcher(line);
        if (!m.find()) r.fail("suspect line not understood: " + line);
        if (!m.group(1).equals(CACHE) || !m.group(2).equals("byte[]")) {
            r.fail("the first suspect is not the cache: " + line);
        }
        int gcs = Integer.parseInt(m.group(4));
        double growth = Double.parseDouble(m.group(3)) * 1e6;
        double truth = (double) gcs * LeakWorkload.CACHE_PER_STEP * objectSize(p, CACHE);
        System.out.printf("suspect growth %.0f bytes over %d GCs, truth %.0f%n", growth, gcs, truth);
        if (gcs != LeakWorkload.STEPS - 1) r.fail("window of " + gcs + " GCs, expected " + (LeakWorkload.STEPS - 1));
        if (Math.abs(growth / truth - 1) > 0.15) r.fail("growth " + growth + " not within 15 % of " + truth);
        if (r.agentLines().stream().anyMatch(l -> l.contains("suspect: " + CHURN))) {
            r.fail("the churn, whose live set does not grow, is a suspect");
        }
        if (p.comments.stream().noneMatch(c -> c.startsWith("suspect: " + CACHE))) {
            r.fail("no suspect comment in the profile");
        }
    }

    static void checkGoTagFocus(AgentRunner.Result r) throws Exception {
        Optional<Path> go = GoPprof.findGo();
        if (go.isEmpty()) {
            System.out.println("skipped: go not found");
            return;
        }
        GoPprof.Result top = GoPprof.pprof(go.get(), "-top", "-sample_index=inuse_space",
                "-tagfocus=gc_age=8:", r.file(PROFILE).toString()).assertSuccess();
        if (!top.stdout().contains(CACHE) || top.stdout().contains(CHURN)) {
            r.fail("-tagfocus=gc_age=8: should keep the cache and drop the churn\n" + top.describe());
        }
        // age_seconds is a mean per sample: the cache's older buckets are seconds old, the
        // churn about one second.
        GoPprof.Result aged = GoPprof.pprof(go.get(), "-top", "-sample_index=inuse_space",
                "-tagfocus=age_seconds=3:", r.file(PROFILE).toString()).assertSuccess();
        if (!aged.stdout().contains(CACHE) || aged.stdout().contains(CHURN)) {
            r.fail("-tagfocus=age_seconds=3: should keep the cache and drop the churn\n" + aged.describe());
        }
    }
}
