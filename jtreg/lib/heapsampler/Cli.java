/*
 * Cli: runs the operator's command, `heapsampler`, and the JVMs it is pointed at, for the
 * tests in jtreg/cli.
 *
 * The command is found beside the agent library, in the build directory jtreg was given as
 * -nativepath (as scripts/run-jtreg.sh does). Every run is bounded in time and recorded
 * (command, exit code, stdout, stderr, elapsed time); a run that outlives its bound is
 * killed and fails the test.
 *
 *   try (Cli.Target t = Cli.Target.withAgent("interval=16k").start("CliTarget")) {
 *       Cli.Result r = Cli.run("status", t.pidString());
 *       r.assertExit(0).assertStdoutContains("state: running");
 *   }
 *
 * A Target is a long-lived child JVM (the workload must print a line starting with
 * "ready" once it is worth asking about, and exit when its stdin closes, as CliTarget
 * does); it may be started through a prefix command (setpriv as another user, unshare into
 * new namespaces). close() ends it by closing its stdin, and kills it if it does not go.
 */
package heapsampler;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class Cli {
    /** The file name the build gives the command. */
    public static final String EXECUTABLE_NAME = "heapsampler";
    /** Every error line of the command starts with this. */
    public static final String ERROR_PREFIX = "heapsampler: ";

    /** The command's exit codes (heapsampler help lists them too). */
    public static final int EXIT_OK = 0, EXIT_USAGE = 1, EXIT_NO_PROCESS = 2, EXIT_NOT_JVM = 3,
            EXIT_PERMISSION = 4, EXIT_ATTACH = 5, EXIT_TIMEOUT = 6, EXIT_NOT_LOADED = 7,
            EXIT_VERSION = 8, EXIT_AGENT_ERROR = 9, EXIT_FILE_EXISTS = 10, EXIT_WRITE = 11,
            EXIT_ALREADY_LOADED = 12;

    /** How long one run of the command may take before it is killed (times -timeoutFactor). */
    public static final Duration RUN_LIMIT = Duration.ofSeconds(60);

    private Cli() {
    }

    /** The command built for this run: ${test.nativepath}/heapsampler. */
    public static Path executable() {
        Path exe = AgentRunner.agentLibrary().resolveSibling(EXECUTABLE_NAME);
        if (!Files.isExecutable(exe)) {
            throw new IllegalStateException(exe + " does not exist: build the heapsampler_cli target");
        }
        return exe;
    }

    /** heapsampler ARGS, as the test's user. */
    public static Result run(String... args) throws IOException, InterruptedException {
        return runWith(List.of(), args);
    }

    /** PREFIX... heapsampler ARGS, e.g. with setpriv to run it as another user. */
    public static Result runWith(List<String> prefix, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(prefix);
        command.add(executable().toString());
        command.addAll(Arrays.asList(args));
        return runCommand(command, RUN_LIMIT);
    }

    /** Any command, bounded by limit (times -timeoutFactor); stdin is empty. */
    public static Result runCommand(List<String> command, Duration limit)
            throws IOException, InterruptedException {
        Path dir = AgentRunner.newRunDirectory("cli");
        Path out = dir.resolve("stdout.txt"), err = dir.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Paths.get("/dev/null").toFile()))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        long start = System.nanoTime();
        Process process = builder.start();
        long limitMillis = (long) (limit.toMillis() * AgentRunner.timeoutFactor());
        boolean finished = process.waitFor(limitMillis, TimeUnit.MILLISECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
        Result r = new Result(command, process.exitValue(), Files.readString(out),
                Files.readString(err), Duration.ofNanos(System.nanoTime() - start), !finished);
        System.out.println(r.describe());
        if (!finished) throw new AssertionError("did not finish within " + limitMillis + " ms\n" + r.describe());
        return r;
    }

    /** A /proc file's text (Files.readString trusts the size procfs reports, and reads short). */
    public static String readProc(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Whether the test runs as root (the tests of other users and namespaces need it). */
    public static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** A jtreg skip, with the reason on the log, unless the test runs as root. */
    public static void requireRoot(String what) {
        if (!isRoot()) throw new jtreg.SkippedException("skipped: " + what + " needs root");
    }

    /** What a test does as a user made for it: asUser is the prefix that runs a command as that user. */
    public interface TestUserBody {
        void run(List<String> asUser, String uid) throws Exception;
    }

    /**
     * Makes a system user (name: prefix + this pid; no home, no shell), runs body with the
     * setpriv prefix that becomes it (its uid and gid, no supplementary group), then removes
     * the user and the perf data directory its JVMs left in /tmp. Root only: a jtreg skip
     * otherwise, and without setpriv or useradd.
     */
    public static void asTestUser(String prefix, TestUserBody body) throws Exception {
        requireRoot("running a JVM as a user made for the test");
        Path setpriv = requireTool("setpriv");
        requireTool("useradd");
        String user = prefix + ProcessHandle.current().pid();
        system("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                "--shell", "/usr/sbin/nologin", user);
        try {
            String uid = system("id", "-u", user).trim();
            String gid = system("id", "-g", user).trim();
            body.run(List.of(setpriv.toString(), "--reuid=" + uid, "--regid=" + gid, "--clear-groups"), uid);
        } finally {
            system("userdel", user);
            Path perf = Paths.get("/tmp/hsperfdata_" + user); // HotSpot's, not the command's
            if (Files.isDirectory(perf)) {
                try (Stream<Path> files = Files.list(perf)) {
                    for (Path f : files.collect(Collectors.toList())) Files.delete(f);
                }
                Files.delete(perf);
            }
        }
    }

    /** A system tool (jtreg gives tests a short PATH), or a jtreg skip naming it. */
    public static Path requireTool(String name) {
        return findTool(name).orElseThrow(() -> new jtreg.SkippedException(
                "skipped: " + name + " not found on this machine"));
    }

    public static Optional<Path> findTool(String name) {
        return Stream.of("/usr/bin", "/usr/sbin", "/bin", "/sbin").map(d -> Paths.get(d, name))
                .filter(Files::isExecutable).findFirst();
    }

    /** Runs a system tool, which must succeed; returns its stdout. */
    public static String system(String... command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(Arrays.asList(command));
        full.set(0, findTool(command[0]).map(Path::toString).orElse(command[0]));
        Result r = runCommand(full, Duration.ofSeconds(30));
        if (r.exitCode != 0) throw new AssertionError("failed: " + String.join(" ", full) + "\n" + r.describe());
        return r.stdout;
    }

    /**
     * Parses json strictly with Python's own parser (python3's json module, NaN and Infinity
     * refused: JSON has neither) and prints the Python expression over it, `d` being the
     * parsed value: jsonQuery(text, "d['rows'][0]['name']"). A jtreg skip without python3.
     */
    public static String jsonQuery(String json, String expression) throws IOException, InterruptedException {
        Path python = requireTool("python3");
        Path file = AgentRunner.newRunDirectory("json").resolve("answer.json");
        Files.writeString(file, json);
        String program = "import json,sys\n"
                + "def bad(c): raise ValueError('not JSON: ' + c)\n"
                + "d = json.load(open(sys.argv[1], encoding='utf-8'), parse_constant=bad)\n"
                + "print(" + expression + ")\n";
        Result r = runCommand(List.of(python.toString(), "-c", program, file.toString()), Duration.ofSeconds(30));
        if (r.exitCode != 0) throw new AssertionError("not strict JSON, or " + expression + " failed:\n" + r.describe());
        return r.stdout.trim();
    }

    /** What one run of a command did. The assert methods return this, so they chain. */
    public static final class Result {
        public final List<String> command;
        public final int exitCode;
        public final String stdout;
        public final String stderr;
        public final Duration elapsed;
        public final boolean timedOut;

        Result(List<String> command, int exitCode, String stdout, String stderr, Duration elapsed,
               boolean timedOut) {
            this.command = Collections.unmodifiableList(new ArrayList<>(command));
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
            this.elapsed = elapsed;
            this.timedOut = timedOut;
        }

        public Result assertExit(int expected) {
            if (exitCode != expected) fail("expected exit code " + expected + ", got " + exitCode);
            return this;
        }

        /** A success: exit 0 and nothing on stderr but lines of the command's own. */
        public Result assertOk() {
            assertExit(0);
            for (String line : stderr.lines().collect(Collectors.toList())) {
                if (!line.startsWith(ERROR_PREFIX)) fail("stray stderr line: " + line);
            }
            return this;
        }

        /**
         * A failure as the contract has it: this exit code, exactly one line on stderr
         * ("heapsampler: ..."), containing each of the words given (case-insensitive),
         * nothing on stdout, and within bound.
         */
        public Result assertFailure(int expected, Duration bound, String... words) {
            assertExit(expected);
            List<String> lines = stderr.lines().collect(Collectors.toList());
            if (lines.size() != 1 || !lines.get(0).startsWith(ERROR_PREFIX)) {
                fail("expected one '" + ERROR_PREFIX + "...' line on stderr, got " + lines.size());
            }
            for (String w : words) {
                if (!lines.get(0).toLowerCase().contains(w.toLowerCase())) {
                    fail("the error line does not say \"" + w + "\"");
                }
            }
            if (!stdout.isEmpty()) fail("a failure printed on stdout");
            if (elapsed.compareTo(bound) > 0) fail("took " + elapsed.toMillis() + " ms, bound " + bound.toMillis());
            return this;
        }

        public Result assertStdoutContains(String text) {
            if (!stdout.contains(text)) fail("stdout does not contain \"" + text + "\"");
            return this;
        }

        public Result assertStdoutMatches(String regex) {
            if (!java.util.regex.Pattern.compile(regex, java.util.regex.Pattern.MULTILINE)
                    .matcher(stdout).find()) {
                fail("no stdout line matches /" + regex + "/");
            }
            return this;
        }

        /** The report's row ranked 1 (top, dump -o x.txt): it must contain each text given. */
        public Result assertFirstRow(String... texts) {
            String first = stdout.lines().filter(l -> l.matches("\\s*1\\s.*")).findFirst().orElse(null);
            if (first == null) fail("no row ranked 1");
            for (String t : texts) {
                if (!first.contains(t)) fail("the row ranked 1 lacks \"" + t + "\": " + first);
            }
            return this;
        }

        /** The stdout lines containing text. */
        public List<String> linesWith(String text) {
            return stdout.lines().filter(l -> l.contains(text)).collect(Collectors.toList());
        }

        public void fail(String message) {
            throw new AssertionError(message + "\n" + describe());
        }

        public String describe() {
            return "---- " + String.join(" ", command) + " (" + elapsed.toMillis() + " ms"
                    + (timedOut ? ", TIMED OUT" : "") + ")\nexit code: " + exitCode
                    + "\nstdout:\n" + clip(stdout) + "stderr:\n" + clip(stderr) + "---- end";
        }

        private static String clip(String text) {
            final int max = 12000;
            String shown = text.length() <= max ? text : text.substring(0, max) + "\n[... clipped]";
            return shown.isEmpty() || shown.endsWith("\n") ? shown : shown + "\n";
        }
    }

    /** A long-lived child JVM the command is pointed at. */
    public static final class Target implements AutoCloseable {
        private final List<String> prefix = new ArrayList<>();
        private final List<String> jvmFlags = new ArrayList<>();
        private String agentOptions; // null: no agent at startup
        private String classPath = System.getProperty("test.class.path");
        private Path dir;
        private Process process;
        private long pid;
        private final StringBuffer stdout = new StringBuffer();
        private final CountDownLatch ready = new CountDownLatch(1);
        private Integer exitCode;

        private Target(String agentOptions) {
            this.agentOptions = agentOptions;
        }

        /** A JVM started with -agentpath:<the build's library>=options. */
        public static Target withAgent(String options) {
            return new Target(options);
        }

        /** A JVM without the agent (for heapsampler load). */
        public static Target withoutAgent() {
            return new Target(null);
        }

        /** A command the JVM is started through, e.g. setpriv --reuid=... */
        public Target prefix(String... words) {
            prefix.addAll(Arrays.asList(words));
            return this;
        }

        /** The class path the JVM is given (default: the test's). */
        public Target classPath(String path) {
            classPath = path;
            return this;
        }

        public Target jvmFlags(String... flags) {
            jvmFlags.addAll(Arrays.asList(flags));
            return this;
        }

        /** Starts java MAIN ARGS in a fresh directory and waits for its "ready" line. */
        public Target start(String mainClass, String... args) throws IOException, InterruptedException {
            return startIn(AgentRunner.newRunDirectory("target"), mainClass, args);
        }

        public Target startIn(Path directory, String mainClass, String... args)
                throws IOException, InterruptedException {
            dir = directory;
            List<String> command = new ArrayList<>(prefix);
            command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"));
            command.add("-XX:-CreateCoredumpOnCrash");
            if (agentOptions != null) {
                command.add("-agentpath:" + AgentRunner.agentLibrary()
                        + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
            }
            command.addAll(jvmFlags);
            if (jvmFlags.stream().noneMatch(f -> f.startsWith("-Djava.io.tmpdir="))) {
                // an agent loaded by attach without file= writes its profiles into the JVM's
                // temp directory: the test's own, not the machine's /tmp
                command.add("-Djava.io.tmpdir=" + dir);
            }
            command.add("-cp");
            command.add(classPath);
            command.add(mainClass);
            command.addAll(Arrays.asList(args));
            System.out.println("target: " + String.join(" ", command));
            process = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectError(dir.resolve("stderr.txt").toFile()).start();
            Thread reader = new Thread(this::readStdout, "target-stdout");
            reader.setDaemon(true);
            reader.start();
            long limit = (long) (60_000 * AgentRunner.timeoutFactor());
            if (!ready.await(limit, TimeUnit.MILLISECONDS)) {
                close();
                throw new AssertionError("the target did not print ready within " + limit + " ms\n" + describe());
            }
            pid = findJavaPid();
            System.out.println("target pid " + pid + " ready: " + stdout.toString().trim());
            return this;
        }

        private void readStdout() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(
                    process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    stdout.append(line).append('\n');
                    if (line.startsWith("ready")) ready.countDown();
                }
            } catch (IOException e) {
                stdout.append("(reading stdout failed: ").append(e).append(")\n");
            }
            ready.countDown();
        }

        /* The started process itself, or the java below a prefix that forks (unshare). */
        private long findJavaPid() {
            if (isJava(process.toHandle())) return process.pid();
            return process.descendants().filter(Target::isJava).mapToLong(ProcessHandle::pid)
                    .findFirst().orElseThrow(() -> new AssertionError("no java process below " + process.pid()));
        }

        private static boolean isJava(ProcessHandle h) {
            return h.info().command().map(c -> c.endsWith("/java")).orElse(false);
        }

        /** The JVM's pid as the host sees it. */
        public long pid() {
            return pid;
        }

        public String pidString() {
            return Long.toString(pid);
        }

        /** The JVM's working directory. */
        public Path dir() {
            return dir;
        }

        /** Writes a line to the application's stdin and waits for a stdout line starting with answer. */
        public void command(String line, String answer) throws IOException, InterruptedException {
            int seen = countLines(answer);
            process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
            long deadline = System.nanoTime() + (long) (30e9 * AgentRunner.timeoutFactor());
            while (countLines(answer) == seen) {
                if (System.nanoTime() > deadline) throw new AssertionError("no \"" + answer + "\" after \"" + line + "\"\n" + describe());
                Thread.sleep(50);
            }
        }

        private int countLines(String start) {
            return (int) stdout().lines().filter(l -> l.startsWith(start)).count();
        }

        /** What the application printed on stdout so far. */
        public String stdout() {
            return stdout.toString();
        }

        public String stderr() throws IOException {
            return Files.readString(dir.resolve("stderr.txt"));
        }

        /** Ends the application (closes its stdin) and returns its exit code. */
        public int stop() throws IOException, InterruptedException {
            if (exitCode != null) return exitCode;
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // already gone
            }
            long limit = (long) (30_000 * AgentRunner.timeoutFactor());
            if (!process.waitFor(limit, TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new AssertionError("the target did not exit within " + limit + " ms of its stdin closing\n" + describe());
            }
            exitCode = process.exitValue();
            System.out.println("target " + pid + " exited with " + exitCode);
            CrashReport.keep("target " + pid, dir, exitCode, stdout(), stderr());
            return exitCode;
        }

        /** The application's exit and output are its own: exit code, no command answer on stdout. */
        public void assertUndisturbed(int expectedExit) throws IOException, InterruptedException {
            int code = stop();
            String out = stdout();
            if (code != expectedExit) throw new AssertionError("the target exited with " + code + ", not " + expectedExit + "\n" + describe());
            if (out.contains("heapsampler") || out.contains("state:") || out.contains("Full thread dump")) {
                throw new AssertionError("an answer reached the application's stdout\n" + describe());
            }
            try (Stream<Path> files = Files.list(dir)) {
                List<Path> crashes = files.filter(p -> p.getFileName().toString().startsWith("hs_err_pid"))
                        .collect(Collectors.toList());
                if (!crashes.isEmpty()) throw new AssertionError("the target crashed: " + crashes);
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            if (process != null && exitCode == null) {
                try {
                    stop();
                } catch (AssertionError e) {
                    System.out.println(e.getMessage());
                }
            }
        }

        public String describe() {
            String err;
            try {
                err = stderr();
            } catch (IOException e) {
                err = "(" + e + ")";
            }
            return "---- target " + pid + " in " + dir + "\nstdout:\n" + stdout() + "stderr:\n" + err + "---- end of target";
        }
    }

    /**
     * The files the command must never leave behind, present now: .attach_pid<PID> for
     * the given pids, and its temporary files (.heapsampler*, .libheapsampler*), in each
     * directory. (The agent's own profiles, heapsampler-<pid>.pb.gz, are the application's.)
     */
    public static Set<Path> leftovers(List<Path> dirs, long... pids) throws IOException {
        Set<Path> found = new HashSet<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(p -> isLeftover(p.getFileName().toString(), pids)).forEach(found::add);
            }
        }
        return found;
    }

    private static boolean isLeftover(String name, long... pids) {
        for (long pid : pids) {
            if (name.equals(".attach_pid" + pid)) return true;
        }
        return name.startsWith(".heapsampler") || name.startsWith(".libheapsampler");
    }

    /**
     * Fails if the command left files behind: a candidate (see leftovers) that was not
     * there before and is still there two seconds later (a parallel test's command may be
     * mid-flight, and its files go away).
     */
    public static void assertNoLeftovers(Set<Path> before, List<Path> dirs, long... pids)
            throws IOException, InterruptedException {
        Set<Path> after = leftovers(dirs, pids);
        after.removeAll(before);
        if (after.isEmpty()) return;
        Thread.sleep(2000);
        Set<Path> still = leftovers(dirs, pids);
        still.retainAll(after);
        if (!still.isEmpty()) throw new AssertionError("files left behind: " + still);
        System.out.println("transient files seen and gone (a parallel command): " + after);
    }
}
