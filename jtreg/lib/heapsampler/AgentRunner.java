/*
 * AgentRunner: starts a child JVM of the JDK under test with the heapsampler agent loaded
 * and records what happened (exit code, stdout, stderr, crash logs, files it wrote).
 *
 * Every run gets its own directory under the test's scratch directory; the child runs
 * there, so relative output paths and hs_err files land in it. A child that crashed has
 * its hs_err file printed to the test's log and kept outside the scratch directory
 * (CrashReport). The JVM options jtreg was
 * given (-vmoption / -javaoption, e.g. a GC to test under) are passed on to the child
 * unless a test turns that off because it chooses its own GC.
 *
 *   AgentRunner.Result r = AgentRunner.withAgent("interval=1k,log=info")
 *           .jvmFlags("-Xmx64m").run("Allocate", "100");
 *   r.assertNoCrash().assertExitCode(0);
 *   String line = r.assertAgentLine("started");
 */
package heapsampler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class AgentRunner {
    /** The file name the build gives the agent. */
    public static final String LIBRARY_NAME = "libheapsampler.so";
    /** Every line the agent writes starts with this. */
    public static final String AGENT_PREFIX = "heapsampler: ";

    private static final AtomicInteger RUN_NUMBER = new AtomicInteger();

    private final List<String> agentArgs = new ArrayList<>();
    private final List<String> jvmFlags = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private boolean inheritTestVmOptions = true;
    private Duration timeout = Duration.ofSeconds(120);
    private String label = "run";

    private AgentRunner() {
    }

    /** The agent built for this run: ${test.nativepath}/libheapsampler.so. */
    public static Path agentLibrary() {
        String dir = System.getProperty("test.nativepath");
        if (dir == null || dir.isEmpty()) {
            throw new IllegalStateException("test.nativepath is not set: run jtreg with "
                    + "-nativepath:<directory holding " + LIBRARY_NAME + ">");
        }
        Path library = Paths.get(dir, LIBRARY_NAME).toAbsolutePath();
        if (!Files.isRegularFile(library)) {
            throw new IllegalStateException(library + " does not exist: build the agent first");
        }
        return library;
    }

    /** A child JVM with the agent loaded once with these options (null: no "=options"). */
    public static AgentRunner withAgent(String options) {
        return new AgentRunner().agent(agentLibrary(), options);
    }

    /** A child JVM without any agent; add one or more with {@link #agent}. */
    public static AgentRunner withoutAgent() {
        return new AgentRunner();
    }

    /** Adds -agentpath:library[=options]; may be called more than once. */
    public AgentRunner agent(Path library, String options) {
        agentArgs.add("-agentpath:" + library + (options == null ? "" : "=" + options));
        return this;
    }

    /** Lets the child attach an agent to itself, as jcmd would from outside (the attach API's
     * loadAgentPath on its own pid; JDK 21+ warns of dynamically loaded agents without the
     * second flag). */
    public AgentRunner selfAttach() {
        return jvmFlags("-Djdk.attach.allowAttachSelf=true", "-XX:+EnableDynamicAgentLoading");
    }

    /** JVM flags placed after the agent options (so they win over the inherited ones). */
    public AgentRunner jvmFlags(String... flags) {
        jvmFlags.addAll(Arrays.asList(flags));
        return this;
    }

    /** Sets an environment variable of the child. */
    public AgentRunner env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Whether the child gets jtreg's -vmoption/-javaoption flags (default true). */
    public AgentRunner inheritTestVmOptions(boolean inherit) {
        inheritTestVmOptions = inherit;
        return this;
    }

    /** How long the child may run, before jtreg's -timeoutFactor is applied. */
    public AgentRunner timeout(Duration limit) {
        timeout = limit;
        return this;
    }

    /** Names the run's directory (for reading the test log). */
    public AgentRunner label(String name) {
        label = name.replaceAll("[^A-Za-z0-9_.-]", "_");
        return this;
    }

    /** Runs a main class from the test class path with the given arguments. */
    public Result run(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> tail = new ArrayList<>();
        tail.add("-cp");
        tail.add(System.getProperty("test.class.path", System.getProperty("java.class.path")));
        tail.add(mainClass);
        tail.addAll(Arrays.asList(args));
        return launch(tail);
    }

    /** Runs java with these arguments after the agent and flags, e.g. "-version". */
    public Result runJava(String... javaArgs) throws IOException, InterruptedException {
        return launch(Arrays.asList(javaArgs));
    }

    /** A fresh directory under the test's scratch directory (each run gets one too). */
    public static Path newRunDirectory(String name) throws IOException {
        Path dir = Paths.get(System.getProperty("user.dir"))
                .resolve(name + "-" + RUN_NUMBER.incrementAndGet()).toAbsolutePath();
        Files.createDirectories(dir);
        return dir;
    }

    private Result launch(List<String> tail) throws IOException, InterruptedException {
        return startWith(tail).finish();
    }

    /** Starts a main class in the background: talk to the child, then {@link Running#finish}. */
    public Running start(String mainClass, String... args) throws IOException {
        List<String> tail = new ArrayList<>();
        tail.add("-cp");
        tail.add(System.getProperty("test.class.path", System.getProperty("java.class.path")));
        tail.add(mainClass);
        tail.addAll(Arrays.asList(args));
        return startWith(tail);
    }

    private Running startWith(List<String> tail) throws IOException {
        Path dir = newRunDirectory(label);
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        if (inheritTestVmOptions) command.addAll(testVmOptions());
        // Crash logs go to the run's directory; core dumps would only fill the disk.
        command.add("-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"));
        command.add("-XX:-CreateCoredumpOnCrash");
        command.addAll(agentArgs);
        command.addAll(jvmFlags);
        command.addAll(tail);

        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().putAll(env);
        long start = System.nanoTime();
        return new Running(builder.start(), command, dir, start,
                (long) (timeout.toMillis() * timeoutFactor()));
    }

    /** A child JVM running in the background; finish() waits for it like run() does. */
    public static final class Running implements AutoCloseable {
        public final Process process;
        public final Path dir;
        private final List<String> command;
        private final long startNanos;
        private final long limitMillis;

        Running(Process process, List<String> command, Path dir, long startNanos, long limitMillis) {
            this.process = process;
            this.command = command;
            this.dir = dir;
            this.startNanos = startNanos;
            this.limitMillis = limitMillis;
        }

        /** What the child wrote on stderr so far. */
        public String stderrSoFar() throws IOException {
            return read(dir.resolve("stderr.txt"));
        }

        /** Waits (at most limit, scaled by the timeout factor) for a stderr line containing
         * text, and returns it; fails if the child exits or the time runs out first. */
        public String awaitStderrLine(String text, Duration limit)
                throws IOException, InterruptedException {
            long end = System.nanoTime() + (long) (limit.toNanos() * timeoutFactor());
            while (System.nanoTime() < end) {
                Optional<String> line = stderrSoFar().lines().filter(l -> l.contains(text)).findFirst();
                if (line.isPresent()) return line.get();
                if (!process.isAlive()) break;
                Thread.sleep(50);
            }
            Result r = finish();
            r.fail("no stderr line containing \"" + text + "\"");
            return null;
        }

        /** Waits for the exit (the runner's timeout; a hung child gets a thread dump). */
        public Result finish() throws IOException, InterruptedException {
            long waited = (System.nanoTime() - startNanos) / 1_000_000;
            boolean finished = process.waitFor(Math.max(0, limitMillis - waited), TimeUnit.MILLISECONDS);
            if (!finished) {
                dumpThreadsAndKill(process);
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
            int exitCode = process.exitValue();
            String stdout = read(dir.resolve("stdout.txt"));
            String stderr = read(dir.resolve("stderr.txt"));
            Result result = new Result(command, dir, exitCode, stdout, stderr, elapsed, !finished,
                    CrashReport.keep("the child JVM", dir, exitCode, stdout, stderr));
            System.out.println(result.describe());
            if (!finished) {
                throw new AssertionError("the child JVM did not finish within " + limitMillis
                        + " ms and was killed (thread dump in its stdout above)");
            }
            return result;
        }

        @Override
        public void close() {
            if (process.isAlive()) process.destroyForcibly();
        }
    }

    /** jtreg's -timeoutFactor, so slow machines get proportionally more time. */
    public static double timeoutFactor() {
        return Double.parseDouble(System.getProperty("test.timeout.factor", "1.0"));
    }

    /** The -vmoption and -javaoption flags jtreg was run with. */
    public static List<String> testVmOptions() {
        String all = System.getProperty("test.vm.opts", "") + " "
                + System.getProperty("test.java.opts", "");
        return Arrays.stream(all.trim().split("\\s+")).filter(s -> !s.isEmpty())
                .collect(Collectors.toList());
    }

    /* A hung child gets SIGQUIT first, so its thread stacks end up in the log. */
    private static void dumpThreadsAndKill(Process process) throws InterruptedException {
        try {
            new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).inheritIO()
                    .start().waitFor(5, TimeUnit.SECONDS);
            Thread.sleep(2000);
        } catch (IOException e) {
            System.out.println("could not send SIGQUIT to " + process.pid() + ": " + e);
        }
        process.destroyForcibly();
        process.waitFor();
    }

    private static String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    /** What one child JVM did. The assert methods return this, so they chain. */
    public static final class Result {
        public final List<String> command;
        public final Path dir;
        public final int exitCode;
        public final String stdout;
        public final String stderr;
        public final Duration elapsed;
        public final boolean timedOut;
        /** Copies of its hs_err files in CrashReport.directory(), if it crashed. */
        public final List<Path> keptCrashLogs;

        Result(List<String> command, Path dir, int exitCode, String stdout, String stderr,
               Duration elapsed, boolean timedOut, List<Path> keptCrashLogs) {
            this.command = Collections.unmodifiableList(new ArrayList<>(command));
            this.dir = dir;
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
            this.elapsed = elapsed;
            this.timedOut = timedOut;
            this.keptCrashLogs = Collections.unmodifiableList(new ArrayList<>(keptCrashLogs));
        }

        /** The agent's lines on stderr ("heapsampler: ..."), in order. */
        public List<String> agentLines() {
            return stderr.lines().filter(l -> l.startsWith(AGENT_PREFIX))
                    .collect(Collectors.toList());
        }

        /** hs_err_pid*.log files the child left in its directory. */
        public List<Path> crashLogs() throws IOException {
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(p -> p.getFileName().toString().startsWith("hs_err_pid"))
                        .sorted().collect(Collectors.toList());
            }
        }

        /** A file in the run's directory. */
        public Path file(String name) {
            return dir.resolve(name);
        }

        public Result assertExitCode(int expected) {
            if (exitCode != expected) fail("expected exit code " + expected + ", got " + exitCode);
            return this;
        }

        public Result assertExitCodeNonZero() {
            if (exitCode == 0) fail("expected a non-zero exit code, got 0");
            return this;
        }

        /** No hs_err file, no fatal-error banner, no death by signal (exit 128+N). */
        public Result assertNoCrash() throws IOException {
            List<Path> logs = crashLogs();
            if (!logs.isEmpty()) {
                fail("the JVM crashed: " + logs + " (printed above, kept as " + keptCrashLogs + ")");
            }
            if (stdout.contains("A fatal error has been detected")
                    || stderr.contains("A fatal error has been detected")) {
                fail("the JVM reported a fatal error");
            }
            if (exitCode > 128 && exitCode < 128 + 65) {
                fail("the JVM died from signal " + (exitCode - 128));
            }
            return this;
        }

        public Result assertStdoutContains(String text) {
            if (!stdout.contains(text)) fail("stdout does not contain \"" + text + "\"");
            return this;
        }

        public Result assertStderrContains(String text) {
            if (!stderr.contains(text)) fail("stderr does not contain \"" + text + "\"");
            return this;
        }

        public Result assertStdoutLacks(String text) {
            if (stdout.contains(text)) fail("stdout unexpectedly contains \"" + text + "\"");
            return this;
        }

        /** Returns the one agent line containing text; fails if none or several do. */
        public String assertAgentLine(String text) {
            List<String> matching = agentLines().stream().filter(l -> l.contains(text))
                    .collect(Collectors.toList());
            if (matching.size() != 1) {
                fail("expected exactly one agent line containing \"" + text + "\", found "
                        + matching.size() + ": " + matching);
            }
            return matching.get(0);
        }

        /** Fails unless the agent wrote exactly n lines. */
        public Result assertAgentLineCount(int n) {
            List<String> lines = agentLines();
            if (lines.size() != n) {
                fail("expected " + n + " agent line(s), found " + lines.size() + ": " + lines);
            }
            return this;
        }

        /** Throws an AssertionError that carries the whole run (command, output). */
        public void fail(String message) {
            throw new AssertionError(message + "\n" + describe());
        }

        public String describe() {
            return "---- child JVM (" + dir.getFileName() + ", " + elapsed.toMillis() + " ms"
                    + (timedOut ? ", TIMED OUT" : "") + ")\n"
                    + "command: " + String.join(" ", command) + "\n"
                    + "exit code: " + exitCode + "\n"
                    + "stdout:\n" + clip(stdout) + "stderr:\n" + clip(stderr)
                    + "---- end of child JVM (" + dir.getFileName() + ")";
        }

        private static String clip(String text) {
            final int max = 20000;
            String shown = text.length() <= max ? text
                    : text.substring(0, max) + "\n[... " + (text.length() - max) + " more chars]";
            return shown.isEmpty() || shown.endsWith("\n") ? shown : shown + "\n";
        }
    }
}
