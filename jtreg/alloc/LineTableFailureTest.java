/*
 * @test
 * @summary A method whose line numbers cannot be read (GetLineNumberTable failing, forced
 *          with HEAPSAMPLER_TEST_FAULTS=line_table_error=N): its frames keep their names and
 *          show no line. An unexpected error (113, JVMTI_ERROR_INTERNAL) is said once on
 *          stderr, counted in the exit log and in the profile's comments; the expected
 *          "no line table" (101, JVMTI_ERROR_ABSENT_INFORMATION: a class compiled without
 *          -g:lines) is neither said nor counted. Without a fault, the same frames have lines
 * @library /lib
 * @build LineTableWorkload
 * @run driver LineTableFailureTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class LineTableFailureTest {
    static final String FRAME = "LineTableWorkload.allocate";
    static final String WARNING = "cannot read a method's line numbers (JVMTI error 113); its "
            + "frames show no line, the profile is otherwise unaffected";
    static final Pattern LOSSES = Pattern.compile(
            "symbols: (\\d+) methods without line numbers \\(GetLineNumberTable failed\\)");

    public static void main(String[] args) throws Exception {
        Pprof normal = run("no-fault", null).profile;
        if (lines(normal).stream().noneMatch(line -> line > 0))
            throw new AssertionError("without a fault, " + FRAME + " has no line:\n"
                    + normal.summary(10));

        Run failing = run("internal-error", "line_table_error=113");
        failing.result.assertAgentLine(WARNING); // exactly once, however many methods failed
        long logged = lossCount(failing.result.assertAgentLine("symbols: "), "exit log");
        String comment = failing.profile.comments.stream().filter(c -> LOSSES.matcher(c).find())
                .findFirst().orElseThrow(() -> new AssertionError(
                        "no symbols comment in the profile: " + failing.profile.comments));
        long commented = lossCount(comment, "profile comment");
        if (logged < 1 || commented < 1)
            throw new AssertionError("no failed method counted: log " + logged + ", profile "
                    + commented);
        assertNoLines(failing.profile, "line_table_error=113");

        Run absent = run("absent-information", "line_table_error=101");
        if (absent.result.agentLines().stream().anyMatch(l -> l.contains("line numbers")))
            absent.result.fail("a method without a line table was reported as a failure");
        if (absent.profile.comments.stream().anyMatch(c -> LOSSES.matcher(c).find()))
            throw new AssertionError("absent line tables counted: " + absent.profile.comments);
        assertNoLines(absent.profile, "line_table_error=101");
    }

    static final class Run {
        final AgentRunner.Result result;
        final Pprof profile;

        Run(AgentRunner.Result result, Pprof profile) {
            this.result = result;
            this.profile = profile;
        }
    }

    static Run run(String label, String faults) throws Exception {
        AgentRunner runner = AgentRunner.withAgent("interval=4k,rate=0,file=lines.pb.gz,log=info")
                .jvmFlags("-Xmx128m").label(label);
        if (faults != null) runner.env("HEAPSAMPLER_TEST_FAULTS", faults);
        AgentRunner.Result r = runner.run("LineTableWorkload");
        r.assertNoCrash().assertExitCode(0);
        Pprof profile = Pprof.read(r.file("lines.pb.gz")).validate();
        if (profile.samplesWithFrame(FRAME).isEmpty())
            r.fail("no sample under " + FRAME + " (names must survive the failure):\n"
                    + profile.summary(10));
        return new Run(r, profile);
    }

    /** The line of every frame of FRAME in the profile's samples. */
    static List<Long> lines(Pprof profile) {
        return profile.samplesWithFrame(FRAME).stream().flatMap(s -> profile.frames(s).stream())
                .filter(f -> f.name().equals(FRAME)).map(Pprof.Frame::line)
                .collect(java.util.stream.Collectors.toList());
    }

    static void assertNoLines(Pprof profile, String what) {
        if (lines(profile).stream().anyMatch(line -> line != 0))
            throw new AssertionError("with " + what + ", " + FRAME + " still has a line:\n"
                    + profile.summary(10));
    }

    static long lossCount(String text, String where) {
        Matcher m = LOSSES.matcher(text);
        if (!m.find()) throw new AssertionError("the " + where + " has no count: " + text);
        return Long.parseLong(m.group(1));
    }
}
