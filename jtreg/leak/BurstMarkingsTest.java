/*
 * @test
 * @summary Growth judged over time, not over counts: after 16 s without a complete marking,
 *          G1 runs 24 concurrent cycles back to back (the last 16 within about a second); a
 *          leak of 5 MB/s into a static registry is named at the exit over a horizon of at
 *          least 8 s of confirmed history (the seconds horizon), and a steady set churning
 *          through the old generation and short-lived garbage are never named
 * @requires vm.gc.G1
 * @library /lib
 * @build RegistryLeak
 * @run driver BurstMarkingsTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class BurstMarkingsTest {
    static final int QUIET_SECONDS = 16, CYCLES = 24;
    static final String PROFILE = "burst.pb.gz";
    static final String LEAK = "RegistryLeak.register";
    static final List<String> NEVER = List.of("RegistryLeak.steadyPut", "RegistryLeak.garbage");
    static final Pattern HORIZON = Pattern.compile("\\(horizon: (\\w+), (\\d+) s\\)");
    static final Pattern MARKINGS = Pattern.compile("(\\d+) markings seen");

    public static void main(String[] args) throws Exception {
        // Sampling as sparse as a service's under a heavy garbage rate: interval=1m, rate=0
        // (the JVM's own sampling law, no cap), so the leak's 4,000-byte arrays get about 4.8
        // samples a second. Markings only when the program asks: G1's own threshold is out of
        // reach (90 %, adaptive IHOP off), and System.gc() starts a concurrent cycle. A 32 MB
        // young generation: a young GC about every half second, a growth record each.
        // The sampling math: over the quiet period the leak gains about 57 samples after the
        // seconds horizon's first point (at most 4 s in), a growth of about 7.5 standard
        // errors, 28 samples (5.3) in its second half, against the rules' 4 and 3: it is
        // named at the exit whatever the burst's pace. The last 16 markings (the longest
        // horizon counted in markings) span the burst: 24 cycles took 0.4-0.6 s here, a
        // sample or two of the leak; the code before the seconds horizon named nothing.
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=1m,rate=0,log=info,dump_period=4s,keep=3,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xms1g", "-Xmx1g", "-Xmn32m", "-XX:-G1UseAdaptiveIHOP",
                        "-XX:InitiatingHeapOccupancyPercent=90", "-XX:+ExplicitGCInvokesConcurrent")
                .timeout(Duration.ofSeconds(QUIET_SECONDS + 60)).label("burst-markings")
                .run("RegistryLeak", Integer.toString(QUIET_SECONDS), Integer.toString(CYCLES));
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(RegistryLeak.DONE_LINE);

        List<String> lines = new ArrayList<>(r.agentLines());
        Pprof p = Pprof.read(r.file(PROFILE)).validate();
        lines.addAll(p.comments);
        for (String line : lines) {
            for (String never : NEVER) {
                if (line.contains("suspect: " + never)) r.fail("false suspect: " + line);
            }
        }
        String liveness = p.comments.stream().filter(c -> c.startsWith("liveness: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no liveness comment: " + p.comments));
        Matcher m = MARKINGS.matcher(liveness);
        int markings = m.find() ? Integer.parseInt(m.group(1)) : -1;
        System.out.println("exit profile: " + liveness);
        if (markings < CYCLES || !liveness.contains("G1 concurrent cycle")) {
            r.fail("premise: the burst's " + CYCLES + " concurrent cycles were not all seen as markings: " + liveness);
        }
        String suspect = p.comments.stream().filter(c -> c.startsWith("suspect: " + LEAK)).findFirst()
                .orElseThrow(() -> new AssertionError("the leak is not named at the exit: "
                        + p.comments + "\n" + r.describe()));
        System.out.println("exit profile: " + suspect);
        Matcher h = HORIZON.matcher(suspect);
        if (!h.find()) r.fail("no horizon in " + suspect);
        int seconds = Integer.parseInt(h.group(2));
        if (seconds < QUIET_SECONDS / 2) {
            r.fail("the leak is judged over " + seconds + " s (" + h.group(1) + "), not over the "
                    + QUIET_SECONDS + " s of history before the burst: " + suspect);
        }
    }
}
