/*
 * @test
 * @summary Loading the agent twice: the same library twice is refused politely (the program
 *          runs, profiled once); a second copy at another path cannot get heap sampling (a
 *          solo JVMTI capability), says another heap profiler has it, and stops the JVM
 * @library /lib
 * @build ExitWith
 * @run driver LoadTwiceTest
 */
import heapsampler.AgentRunner;

import java.nio.file.Files;
import java.nio.file.Path;

public class LoadTwiceTest {
    public static void main(String[] args) throws Exception {
        sameLibraryTwice();
        twoCopiesOfTheLibrary();
    }

    /** -agentpath:X=... -agentpath:X=...: one agent, the second load refused. */
    static void sameLibraryTwice() throws Exception {
        Path library = AgentRunner.agentLibrary();
        AgentRunner.Result r = AgentRunner.withoutAgent().label("same-library-twice")
                .agent(library, "file=first.pb.gz").agent(library, "file=second.pb.gz")
                .run("ExitWith", "7");
        r.assertNoCrash().assertExitCode(7).assertStdoutContains(ExitWith.MARKER);
        r.assertAgentLine("already loaded");
        if (Files.exists(r.file("second.pb.gz"))) {
            r.fail("the refused second load wrote its profile second.pb.gz");
        }
        if (!Files.isRegularFile(r.file("first.pb.gz"))) {
            r.fail("the first load did not write its profile first.pb.gz");
        }
    }

    /**
     * A copy of the library is a separate agent to the JVM. Only one agent can have
     * can_generate_sampled_object_alloc_events, so the copy must fail, say why, and make
     * the JVM exit non-zero (Agent_OnLoad returns JNI_ERR) instead of running unprofiled.
     */
    static void twoCopiesOfTheLibrary() throws Exception {
        Path original = AgentRunner.agentLibrary();
        Path copy = AgentRunner.newRunDirectory("agent-copy").resolve(AgentRunner.LIBRARY_NAME);
        Files.copy(original, copy);
        AgentRunner.Result r = AgentRunner.withoutAgent().label("two-copies")
                .agent(original, "file=original.pb.gz").agent(copy, "file=copy.pb.gz")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCodeNonZero().assertStdoutLacks(ExitWith.MARKER);
        r.assertAgentLine("another heap profiler");
    }
}
