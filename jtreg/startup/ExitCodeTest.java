/*
 * @test
 * @summary The agent keeps the program's exit code (System.exit(42) -> 42, a normal end
 *          -> 0), writes its profile on both paths, says "started" with its options at
 *          log=info, and says nothing at the default log level
 * @library /lib
 * @build ExitWith
 * @run driver ExitCodeTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;

public class ExitCodeTest {
    public static void main(String[] args) throws Exception {
        systemExitKeepsItsCode();
        normalEndExitsZero();
    }

    static void systemExitKeepsItsCode() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("log=info,file=exit42.pb.gz")
                .label("system-exit-42").run("ExitWith", "42");
        r.assertNoCrash().assertExitCode(42).assertStdoutContains(ExitWith.MARKER);
        String started = r.assertAgentLine("started");
        if (!started.startsWith(AgentRunner.AGENT_PREFIX + "started: ")
                || !started.contains("interval=524288")) {
            r.fail("expected \"heapsampler: started: ...\" showing the default interval=524288,"
                    + " got \"" + started + "\"");
        }
        checkProfile(r, r.file("exit42.pb.gz"));
    }

    static void normalEndExitsZero() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=normal.pb.gz").label("normal-end")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(ExitWith.MARKER);
        r.assertAgentLineCount(0); // log=warn by default: a healthy run is silent
        checkProfile(r, r.file("normal.pb.gz"));
    }

    /** The profile exists, is gzipped and is a structurally valid profile.proto. */
    static void checkProfile(AgentRunner.Result r, Path file) throws Exception {
        if (!Files.isRegularFile(file)) r.fail("no profile at " + file);
        if (!Pprof.isGzip(file)) r.fail(file + " is not gzipped");
        Pprof profile = Pprof.read(file);
        System.out.println(file.getFileName() + ":\n" + profile.summary(10));
        profile.validate();
    }
}
