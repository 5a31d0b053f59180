/*
 * @test
 * @summary No false leak alarms: a site whose objects are promoted and then die, short-lived
 *          garbage, and a cache churning through the old generation at a steady size
 *          (filled from one stack at startup, refilled from another) are never named as
 *          suspects, although before the first marking the promoted garbage counts as in
 *          use (all of it labelled liveness=unjudged); after a complete marking the
 *          confirmed figure of the promoted-then-dead site is its live set, within sampling
 *          error
 * @requires vm.gc.G1
 * @library /lib
 * @build PromotedDeathWorkload
 * @run driver NoFalseSuspectTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

public class NoFalseSuspectTest {
    static final int SECONDS = 40;
    static final String PROFILE = "nfs.pb.gz";
    static final Pattern PERIODIC = Pattern.compile("nfs-(\\d+)\\.pb\\.gz");
    static final Pattern MARKINGS = Pattern.compile("(\\d+) markings seen");
    static final String HELD = "PromotedDeathWorkload.heldHere";
    static final String CACHE = "PromotedDeathWorkload.cachePut";
    static final String GARBAGE = "PromotedDeathWorkload.garbage";
    static final List<String> NEVER_SUSPECTS = List.of(HELD, CACHE, GARBAGE);
    /** The default interval: the figures are judged at the defaults. */
    static final long INTERVAL = 512 * 1024;

    public static void main(String[] args) throws Exception {
        // rate=0: the confirmed-figure check needs each sample's inclusion probability to
        // be the JVM's own (1 - exp(-size/interval)); the rate cap's weights would widen it.
        // A 2 GB heap with a fixed marking threshold of 20 % (adaptive IHOP off, so the run
        // does not depend on how fast the machine is): G1's first concurrent marking waits
        // for about 400 MB of old objects, so for some ten seconds the promoted garbage is
        // not collected (the case that used to be named a leak), and markings follow in the
        // run. MaxTenuringThreshold=1 promotes what lives 3 s.
        AgentRunner.Result r = AgentRunner
                .withAgent("rate=0,log=info,dump_period=5s,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xmx2g", "-Xms2g", "-XX:MaxTenuringThreshold=1",
                        "-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=20")
                .timeout(Duration.ofSeconds(SECONDS + 60)).label("no-false-suspect")
                .run("PromotedDeathWorkload", Integer.toString(SECONDS));
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(PromotedDeathWorkload.DONE_LINE);

        // Neither the promoted-then-dead site, nor the steady cache, nor the short-lived
        // garbage may ever be named. The cache's entries come from two stacks (the startup
        // fill, the steady refill): judged stack by stack, the refill's stack "grew" while
        // the fill's shrank (growth.h: a suspect is judged over all the stacks of its site).
        // The garbage allocated since the last young pause is still referenced at a G1
        // Remark or Cleanup: a marking's end must not confirm it (liveness.h).
        for (String line : r.agentLines()) {
            if (falseSuspect(line)) r.fail("false suspect: " + line);
        }
        long held = heldAtEnd(r);
        boolean garbageCounted = false, concurrentMarking = false;
        for (int n : periodicNumbers(r.dir)) {
            Pprof p = Pprof.read(r.file("nfs-" + n + ".pb.gz")).validate();
            for (String c : p.comments) {
                if (falseSuspect(c)) {
                    r.fail("false suspect in nfs-" + n + ".pb.gz: " + c);
                }
            }
            String liveness = livenessComment(r, p);
            concurrentMarking |= liveness.contains("G1 concurrent cycle");
            long inuse = p.sum("inuse_space", site(p, HELD));
            long unjudged = p.sum("inuse_space", site(p, HELD).and(liveness(HELD_UNJUDGED)));
            System.out.printf("nfs-%d: %s in use %d bytes (%d unjudged); %s%n", n, HELD, inuse,
                    unjudged, markings(liveness) + " markings");
            // Before any marking, the promoted garbage is in use: more than twice the live set.
            if (markings(liveness) == 0 && inuse > 2 * held * PromotedDeathWorkload.HELD_BYTES) {
                garbageCounted = true;
                if (unjudged != inuse) r.fail("before any marking, in-use samples must all be unjudged");
            }
        }
        if (!garbageCounted) {
            r.fail("premise: no periodic profile before the first marking counted the promoted "
                    + "garbage as in use (the case this test is about did not happen)");
        }
        // Whether G1 starts a concurrent cycle within the run depends on its timing even at a
        // fixed threshold (seen missing once on JDK 25): said, not failed; the cycle's
        // detection itself is unit-tested (test_liveness, JDK 17 and 25 shapes).
        if (!concurrentMarking) System.out.println("note: no G1 concurrent marking during this run");
        checkConfirmedFigure(r, held);
    }

    static final String HELD_UNJUDGED = "unjudged";

    static boolean falseSuspect(String line) {
        return line.contains("suspect: ") && NEVER_SUSPECTS.stream().anyMatch(line::contains);
    }

    static Predicate<Pprof.Sample> liveness(String value) {
        return s -> s.labels().stream().anyMatch(l -> l.key().equals("liveness") && l.str().equals(value));
    }

    /** The arrays allocated directly by `method`. */
    static Predicate<Pprof.Sample> site(Pprof p, String method) {
        return s -> {
            var names = p.stackNames(s);
            return names.size() > 1 && names.get(0).equals("byte[]") && names.get(1).equals(method);
        };
    }

    static String livenessComment(AgentRunner.Result r, Pprof p) {
        return p.comments.stream().filter(c -> c.startsWith("liveness: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no liveness comment: " + p.comments));
    }

    static int markings(String comment) {
        Matcher m = MARKINGS.matcher(comment);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    static long heldAtEnd(AgentRunner.Result r) {
        return printed(r, "HELD ");
    }

    static long printed(AgentRunner.Result r, String prefix) {
        return r.stdout.lines().filter(l -> l.startsWith(prefix))
                .mapToLong(l -> Long.parseLong(l.substring(prefix.length()))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + "line\n" + r.describe()));
    }

    /** The exit profile is as of the program's System.gc(), a full GC: every in-use sample is
     *  confirmed, and heldHere's confirmed bytes are the arrays it held then, as the JVM's
     *  sampler sees the site, within 4 sigma. Measured on JDK 17: the sampler itself takes
     *  these 32 KB arrays, allocated 9 at a time between 1 KB ones, about 25 % less often
     *  than 1 - exp(-size/interval) says, in the allocation and in-use figures alike (a
     *  property of the JVM's sampling, not of liveness); so the truth is scaled by the site's
     *  allocation estimate over what the program allocated, and that ratio's error counts. */
    static void checkConfirmedFigure(AgentRunner.Result r, long held) throws IOException {
        Pprof p = Pprof.read(r.file(PROFILE)).validate();
        String liveness = livenessComment(r, p);
        if (!liveness.contains("full GC")) r.fail("the last marking should be the full GC: " + liveness);
        long size = p.samples.stream().filter(site(p, HELD)).flatMap(s -> s.labels().stream())
                .filter(l -> l.key().equals("bytes")).mapToLong(Pprof.Label::num).max().orElse(0);
        long confirmed = p.sum("inuse_space", site(p, HELD).and(liveness("confirmed")));
        long allocated = printed(r, "ALLOCATED ");
        double seen = (double) p.sum("alloc_space", site(p, HELD)) / (allocated * size);
        double truth = held * size * seen;
        double prob = 1 - Math.exp(-(double) size / INTERVAL);
        double relInuse = Math.sqrt((1 - prob) / (held * prob)), relSeen = Math.sqrt((1 - prob) / (allocated * prob));
        double sigma = Math.hypot(relInuse, relSeen) * truth;
        System.out.printf("%s confirmed %d bytes, held %d arrays of %d bytes, as the sampler sees "
                + "the site (alloc estimate / allocated = %.3f) %.0f, 4 sigma %.0f%n",
                HELD, confirmed, held, size, seen, truth, 4 * sigma);
        if (seen < 0.5 || seen > 1.5) r.fail("premise: the sampler sees " + seen + " of the site's allocation");
        if (held < 1000 || size < PromotedDeathWorkload.HELD_BYTES) r.fail("premise: held " + held + " of " + size);
        if (Math.abs(confirmed - truth) > 4 * sigma) {
            r.fail(HELD + ": confirmed " + confirmed + " bytes, its live set " + truth + " ± " + 4 * sigma);
        }
        long unjudged = p.sum("inuse_space", site(p, HELD).and(liveness("unjudged")));
        if (unjudged != 0) {
            r.fail(HELD + ": after the full GC nothing in use should be unjudged, found " + unjudged);
        }
    }

    static List<Integer> periodicNumbers(Path dir) throws IOException {
        List<Integer> numbers = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(f -> {
                Matcher m = PERIODIC.matcher(f.getFileName().toString());
                if (m.matches()) numbers.add(Integer.parseInt(m.group(1)));
            });
        }
        numbers.sort(null);
        return numbers;
    }
}
