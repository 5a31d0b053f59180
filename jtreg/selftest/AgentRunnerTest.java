/*
 * @test
 * @summary The suite's child-JVM runner (heapsampler.AgentRunner) sees what the tests rely
 *          on: exit codes, both output streams, a JVM crash, a hung JVM (killed after a
 *          thread dump), and jtreg's -vmoption flags passed on to the child
 * @library /lib
 * @run driver AgentRunnerTest
 */
import heapsampler.AgentRunner;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;

public class AgentRunnerTest {
    public static void main(String[] args) throws Exception {
        capturesExitCodeAndStreams();
        detectsACrash();
        killsAHungJvm();
    }

    static void capturesExitCodeAndStreams() throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent().label("streams")
                .run("AgentRunnerTest$Talk", "5");
        r.assertNoCrash().assertExitCode(5).assertStdoutContains("to stdout");
        r.assertStderrContains("to stderr");
        r.assertAgentLineCount(1);
        if (!r.assertAgentLine("not really").equals("heapsampler: not really the agent")) {
            r.fail("agentLines() changed the line");
        }
        expectFailure(() -> r.assertExitCode(0), "expected exit code 0, got 5");
        expectFailure(() -> r.assertStdoutContains("to stderr"), "stdout does not contain");
        expectFailure(() -> r.assertAgentLineCount(0), "expected 0 agent line(s), found 1");
        // The child got jtreg's -vmoption/-javaoption flags, in the same order.
        String expected = String.join(" ", AgentRunner.testVmOptions());
        if (!String.join(" ", r.command).contains(expected)) {
            r.fail("the test VM options \"" + expected + "\" were not passed on");
        }
    }

    static void detectsACrash() throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent().label("crash")
                .run("AgentRunnerTest$Crash");
        if (r.crashLogs().isEmpty()) r.fail("no hs_err file for a crashed JVM");
        expectFailure(r::assertNoCrash, "the JVM crashed");
    }

    static void killsAHungJvm() throws Exception {
        AgentRunner runner = AgentRunner.withoutAgent().label("hung")
                .timeout(Duration.ofMillis(500));
        long start = System.nanoTime();
        expectFailure(() -> runner.run("AgentRunnerTest$Hang"), "did not finish within");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        if (seconds > 60) throw new AssertionError("killing the hung JVM took " + seconds + " s");
    }

    interface Action {
        void run() throws Exception;
    }

    static void expectFailure(Action action, String messagePart) throws Exception {
        try {
            action.run();
        } catch (AssertionError expected) {
            if (!expected.getMessage().contains(messagePart)) {
                throw new AssertionError("wrong failure, expected \"" + messagePart + "\"",
                        expected);
            }
            return;
        }
        throw new AssertionError("no failure, expected \"" + messagePart + "\"");
    }

    /** Writes to both streams and exits with its argument. */
    public static class Talk {
        public static void main(String[] args) {
            System.out.println("to stdout");
            System.err.println("to stderr");
            System.err.println("heapsampler: not really the agent");
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /** Writes to address 0 with sun.misc.Unsafe (through reflection): SIGSEGV, hs_err. */
    public static class Crash {
        public static void main(String[] args) throws Exception {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field field = unsafeClass.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            Method putAddress = unsafeClass.getMethod("putAddress", long.class, long.class);
            putAddress.invoke(field.get(null), 0L, 42L);
            System.out.println("still alive after writing to address 0");
        }
    }

    /** Never ends on its own. */
    public static class Hang {
        public static void main(String[] args) throws Exception {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
