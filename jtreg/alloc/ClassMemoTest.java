/*
 * @test
 * @summary Class ids come from the process's memo of the classes' addresses between
 *          collections (class_memo.h) where GC events bracket every move (G1, Serial,
 *          Parallel), and are right: 40 classes, each allocated at its own site, in a heap
 *          collected every few milliseconds; no sample of a site carries another site's
 *          class. With 8 classes most lookups skip JVMTI, from 2 threads and from 32 (the
 *          memo is shared); under Z (objects move between its pauses) none does
 * @library /lib
 * @build AllocProfiles ClassMemoWorkload
 * @run driver ClassMemoTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class ClassMemoTest {
    static final Pattern LOOKUPS = Pattern.compile("class ids: (\\d+) looked up through JVMTI");
    static final Pattern RECORDED = Pattern.compile("samples recorded: (\\d+);");
    static final Pattern SITE = Pattern.compile("a(\\d+)");
    static final Pattern LEAF = Pattern.compile(".*[$.]C(\\d+)");

    public static void main(String[] args) throws Exception {
        long[] g1Few = null;
        for (String gc : new String[] {"G1", "Serial", "Parallel"}) {
            long[] few = run(gc, 8, "6000000");
            if (gc.equals("G1")) g1Few = few;
            check(few[0] * 4 < few[1], gc + ", 8 classes: " + few[0] + " lookups through JVMTI for "
                    + few[1] + " samples; the memo should answer most of them");
            run(gc, 40, "6000000"); // more classes than the memo's ways: misses, never wrong
        }
        /* The same work from 32 threads: the memo is the process's, so a class is looked up
         * about once a stretch whatever the threads (a memo per thread looked up 4.2 times
         * as many here: 6,591 against 1,561 from 2 threads) */
        long[] many = run("G1", 8, "6000000", 32);
        check(many[0] < 2 * g1Few[0], "G1, 8 classes: " + many[0] + " lookups through JVMTI "
                + "from 32 threads against " + g1Few[0] + " from 2; the memo should be shared");
        if (zgcAvailable()) {
            long[] z = run("Z", 8, "3000000");
            check(z[0] >= z[1], "Z: " + z[0] + " lookups through JVMTI for " + z[1]
                    + " samples; the memo must be off where objects move between pauses");
        }
    }

    static boolean zgcAvailable() {
        return AllocProfiles.jdkFeature() >= 17; // ZGC is a product feature from JDK 15 on
    }

    /** One run: returns {lookups through JVMTI, samples recorded}; checks every leaf. */
    static long[] run(String gc, int classes, String rounds) throws Exception {
        return run(gc, classes, rounds, 2);
    }

    static long[] run(String gc, int classes, String rounds, int threads) throws Exception {
        String file = gc + "-" + classes + "-" + threads + ".pb.gz";
        AgentRunner.Result r = AgentRunner.withAgent("interval=4k,rate=0,log=info,file=" + file)
                .jvmFlags("-XX:+Use" + gc + "GC", "-Xmx48m", "-Xms48m")
                .label(gc + "-" + classes + "-" + threads)
                .run("ClassMemoWorkload", String.valueOf(classes), rounds, String.valueOf(threads));
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("ClassMemoWorkload: done");
        Pprof p = AllocProfiles.readProfile(r, file);
        java.util.Set<String> sites = new java.util.TreeSet<>();
        for (Pprof.Sample s : p.samples) {
            List<Pprof.Frame> frames = p.frames(s);
            if (frames.size() < 2) continue;
            Matcher site = SITE.matcher(frames.get(1).name().replaceAll(".*[.$]", ""));
            if (!site.matches()) continue;
            Matcher leaf = LEAF.matcher(frames.get(0).name());
            /* The VM allocates a few JDK objects (String, byte[]) itself while it links a
             * class at its first `new`, with that site on top: not a workload class. */
            if (!leaf.matches()) continue;
            check(leaf.group(1).equals(site.group(1)),
                    gc + ": site a" + site.group(1) + " has a sample of " + frames.get(0).name());
            sites.add(site.group(1));
        }
        check(sites.size() == classes, gc + ": samples at " + sites.size() + " of the " + classes
                + " sites: " + sites);
        long lookups = number(r, LOOKUPS), recorded = number(r, RECORDED);
        System.out.println(gc + ", " + classes + " classes, " + threads + " threads: the stacks of " + sites.size() + " sites checked, "
                + lookups + " lookups through JVMTI for " + recorded + " samples");
        return new long[] {lookups, recorded};
    }

    static long number(AgentRunner.Result r, Pattern pattern) {
        for (String line : r.agentLines()) {
            Matcher m = pattern.matcher(line);
            if (m.find()) return Long.parseLong(m.group(1));
        }
        r.fail("no agent line matching " + pattern);
        return -1;
    }

    static void check(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }
}
