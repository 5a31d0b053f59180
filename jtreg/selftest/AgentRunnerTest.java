/*
 * @test
 * @summary The suite's child-JVM runner (heapsampler.AgentRunner) sees what the tests rely
 *          on: exit codes, both output streams, a JVM crash (its hs_err file printed to the
 *          test's log and kept outside the scratch directory), a hung JVM (killed after a
 *          thread dump), and jtreg's -vmoption flags passed on to the child
 * @library /lib
 * @run driver AgentRunnerTest
 */
import heapsampler.AgentRunner;
import heapsampler.CrashReport;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;

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

    /* A crashed child: its hs_err file printed to the test's stdout (so it is in the .jtr
     * log) and kept whole outside jtreg's scratch directory, which the next test empties. */
    static void detectsACrash() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(new Tee(original, printed), true, "UTF-8"));
        AgentRunner.Result r;
        try {
            r = AgentRunner.withoutAgent().label("crash").run("AgentRunnerTest$Crash");
        } finally {
            System.setOut(original);
        }
        if (r.crashLogs().isEmpty()) r.fail("no hs_err file for a crashed JVM");
        expectFailure(r::assertNoCrash, "the JVM crashed");
        String stdout = new String(printed.toByteArray(), StandardCharsets.UTF_8);
        for (String part : Arrays.asList("==== the child JVM (" + r.dir.getFileName() + ") crashed",
                CrashReport.BANNER, "# Problematic frame:", "T H R E A D", "Current thread")) {
            if (!stdout.contains(part)) r.fail("the test's stdout lacks \"" + part + "\" of the crash report");
        }
        Path scratch = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        if (r.keptCrashLogs.size() != r.crashLogs().size()) {
            r.fail("kept " + r.keptCrashLogs + " of " + r.crashLogs());
        }
        for (Path log : r.crashLogs()) {
            Path kept = r.keptCrashLogs.stream()
                    .filter(k -> k.getFileName().toString().endsWith("-" + log.getFileName()))
                    .findFirst().orElse(null);
            if (kept == null || !kept.startsWith(CrashReport.directory()) || kept.startsWith(scratch)
                    || !Arrays.equals(Files.readAllBytes(kept), Files.readAllBytes(log))) {
                r.fail(log + " is not kept whole in " + CrashReport.directory()
                        + ", outside the scratch directory " + scratch + ": " + r.keptCrashLogs);
            }
        }
        // what counts as a crash without a file: the banner, or the error handler's signals
        if (!CrashReport.crashed(134, "", "", Collections.emptyList())
                || !CrashReport.crashed(1, "# " + CrashReport.BANNER, "", Collections.emptyList())
                || CrashReport.crashed(137, "", "", Collections.emptyList())
                || CrashReport.crashed(1, "", "", Collections.emptyList())) {
            throw new AssertionError("CrashReport.crashed misjudges exit codes or the banner");
        }
    }

    /** Writes to two streams. */
    static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
            b.flush();
        }
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
