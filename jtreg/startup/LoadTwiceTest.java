/*
 * @test
 * @summary Loading the agent twice: the same library twice is refused politely (the program
 *          runs, profiled once). A second copy at another path cannot get heap sampling (a
 *          solo JVMTI capability): it says in one line which copy has it and does nothing,
 *          and the JVM runs as if it were absent (a platform that injects the agent while
 *          the application names its own must not lose the application); an attach to the
 *          second copy's path reaches the running copy. Another heap profiler holding heap
 *          sampling: one line, the program runs unprofiled with its own exit code; an attach
 *          then fails with that line, and the program runs on.
 * @library /lib
 * @build ExitWith AttachCopy
 * @run driver LoadTwiceTest
 */
import heapsampler.AgentRunner;

import java.nio.file.Files;
import java.nio.file.Path;

public class LoadTwiceTest {
    public static void main(String[] args) throws Exception {
        sameLibraryTwice();
        twoCopiesOfTheLibrary();
        attachToTheOtherCopy();
        anotherHeapProfilerFirst();
        attachBesideAnotherHeapProfiler();
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

    /** A copy of the library at another path. */
    static Path copyOfTheLibrary(String label) throws Exception {
        Path copy = AgentRunner.newRunDirectory(label).resolve(AgentRunner.LIBRARY_NAME);
        Files.copy(AgentRunner.agentLibrary(), copy);
        return copy;
    }

    /**
     * A copy of the library is a separate agent to the JVM, and only one agent can have
     * can_generate_sampled_object_alloc_events: the copy names the running one and steps
     * aside (Agent_OnLoad returns JNI_OK), and the program runs profiled by the first.
     */
    static void twoCopiesOfTheLibrary() throws Exception {
        Path original = AgentRunner.agentLibrary();
        Path copy = copyOfTheLibrary("agent-copy");
        AgentRunner.Result r = AgentRunner.withoutAgent().label("two-copies")
                .agent(original, "file=original.pb.gz").agent(copy, "file=copy.pb.gz")
                .run("ExitWith", "7");
        r.assertNoCrash().assertExitCode(7).assertStdoutContains(ExitWith.MARKER);
        String line = r.assertAgentLine("another copy of heapsampler runs in this JVM");
        if (!line.contains("(" + original + ")") || !line.contains("this copy (" + copy + ", options 'file=copy.pb.gz') does nothing"))
            r.fail("the line does not name both copies: " + line);
        r.assertAgentLineCount(1);
        if (!Files.isRegularFile(r.file("original.pb.gz"))) r.fail("the running copy wrote no profile");
        if (Files.exists(r.file("copy.pb.gz"))) r.fail("the copy that stepped aside wrote a profile");
    }

    /** jcmd JVMTI.agent_load <the copy> status: answered by the copy that runs. */
    static void attachToTheOtherCopy() throws Exception {
        Path copy = copyOfTheLibrary("attach-copy");
        AgentRunner.Result r = AgentRunner.withAgent("file=original.pb.gz").label("attach-copy")
                .selfAttach()
                .run("AttachCopy", copy.toString(), "status");
        r.assertNoCrash().assertExitCode(5).assertStdoutContains("OK");
        r.assertStdoutContains("heapsampler: state: running");
        r.assertStdoutContains("heapsampler: options: interval=524288,file=original.pb.gz,");
        if (!Files.isRegularFile(r.file("original.pb.gz"))) r.fail("the running copy wrote no profile");
    }

    /** The other heap profiler's library: built beside the agent (test/agents/). */
    static Path otherProfiler() {
        return AgentRunner.agentLibrary().resolveSibling("libhs_hold_sampling.so");
    }

    static final String HELD = "heap sampling is held by another JVMTI agent in this JVM";

    /** Another heap profiler loaded first: one line, the program runs unprofiled. */
    static void anotherHeapProfilerFirst() throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent().label("other-profiler-first")
                .agent(otherProfiler(), null).agent(AgentRunner.agentLibrary(), "file=heap.pb.gz")
                .run("ExitWith", "7");
        r.assertNoCrash().assertExitCode(7).assertStdoutContains(ExitWith.MARKER);
        r.assertStderrContains("hold_sampling: holding heap sampling");
        String line = r.assertAgentLine(HELD);
        if (!line.endsWith("heapsampler does nothing in this JVM")) r.fail("the line does not say what happens: " + line);
        r.assertAgentLineCount(1);
        if (Files.exists(r.file("heap.pb.gz"))) r.fail("a profile was written without heap sampling");
    }

    /** Loading by attach beside another heap profiler: refused with the line, the program runs. */
    static void attachBesideAnotherHeapProfiler() throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent().label("attach-beside-other-profiler")
                .agent(otherProfiler(), null)
                .selfAttach()
                .run("AttachCopy", AgentRunner.agentLibrary().toString(), "file=heap.pb.gz");
        r.assertNoCrash().assertExitCode(5).assertStdoutContains("REFUSED");
        r.assertStdoutContains("AttachCopy: done");
        r.assertAgentLine(HELD);
        r.assertAgentLineCount(1);
    }
}
