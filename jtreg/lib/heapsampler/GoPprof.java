/*
 * GoPprof: runs the reference reader, `go tool pprof`, on a profile file.
 *
 * Where go is looked for: $HEAPSAMPLER_TEST_GO (scripts/run-jtreg.sh passes the go it
 * finds), then every directory of $PATH, then /usr/lib/go/bin/go and /usr/bin/go (jtreg
 * gives tests a short PATH). CI installs golang-go; elsewhere a test either skips the
 * go check with a clear "skipped: go not found" line, or skips as a whole through
 * requireGo() (jtreg reports it as skipped, not passed).
 */
package heapsampler;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

public final class GoPprof {
    /** What one `go tool pprof` run did. */
    public static final class Result {
        private final List<String> command;
        private final int exitCode;
        private final String stdout;
        private final String stderr;

        public Result(List<String> command, int exitCode, String stdout, String stderr) {
            this.command = command;
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        public List<String> command() {
            return command;
        }

        public int exitCode() {
            return exitCode;
        }

        public String stdout() {
            return stdout;
        }

        public String stderr() {
            return stderr;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Result)) return false;
            Result other = (Result) o;
            return java.util.Objects.equals(command, other.command) && exitCode == other.exitCode && java.util.Objects.equals(stdout, other.stdout) && java.util.Objects.equals(stderr, other.stderr);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(command, exitCode, stdout, stderr);
        }

        @Override
        public String toString() {
            return "Result[" + "command=" + command + ", " + "exitCode=" + exitCode + ", " + "stdout=" + stdout + ", " + "stderr=" + stderr + "]";
        }

        public Result assertSuccess() {
            if (exitCode != 0) throw new AssertionError("go tool pprof failed\n" + describe());
            return this;
        }

        public String describe() {
            return "command: " + String.join(" ", command) + "\nexit code: " + exitCode
                    + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    private GoPprof() {
    }

    /** The go executable, if there is one. */
    public static Optional<Path> findGo() {
        List<String> candidates = new ArrayList<>();
        String configured = System.getenv("HEAPSAMPLER_TEST_GO");
        if (configured != null && !configured.isEmpty()) candidates.add(configured);
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty()) candidates.add(Paths.get(dir, "go").toString());
            }
        }
        candidates.addAll(Arrays.asList("/usr/lib/go/bin/go", "/usr/bin/go"));
        return candidates.stream().map(Paths::get).filter(Files::isExecutable).findFirst();
    }

    /** The go executable, or a jtreg skip of the whole test when there is none. */
    public static Path requireGo() {
        return findGo().orElseThrow(() -> new jtreg.SkippedException(
                "skipped: go not found (install golang-go, or set HEAPSAMPLER_TEST_GO)"));
    }

    /** go tool pprof ARGS; the profile is read from disk, nothing is fetched. */
    public static Result pprof(Path go, String... args) throws IOException, InterruptedException {
        Path scratch = AgentRunner.newRunDirectory("go-pprof");
        List<String> command = new ArrayList<>(List.of(go.toString(), "tool", "pprof"));
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(scratch.toFile())
                .redirectOutput(scratch.resolve("stdout.txt").toFile())
                .redirectError(scratch.resolve("stderr.txt").toFile());
        // pprof keeps fetched profiles under $PPROF_TMPDIR or $HOME/pprof: keep it local.
        builder.environment().put("HOME", scratch.toString());
        builder.environment().put("PPROF_TMPDIR", scratch.toString());
        builder.environment().put("GOCACHE", scratch.resolve("gocache").toString());
        Process process = builder.start();
        long limit = (long) (120_000 * AgentRunner.timeoutFactor());
        if (!process.waitFor(limit, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("go tool pprof did not finish within " + limit + " ms: "
                    + command);
        }
        Result result = new Result(command, process.exitValue(),
                Files.readString(scratch.resolve("stdout.txt"), StandardCharsets.UTF_8),
                Files.readString(scratch.resolve("stderr.txt"), StandardCharsets.UTF_8));
        String shown = result.describe();
        if (shown.length() > 20000) shown = shown.substring(0, 20000) + "\n[... clipped]";
        System.out.println("---- go tool pprof\n" + shown + "\n---- end of go tool pprof");
        return result;
    }

    /** go tool pprof -raw FILE: every field as the reference reader decoded it. */
    public static Result raw(Path go, Path profile) throws IOException, InterruptedException {
        return pprof(go, "-raw", profile.toAbsolutePath().toString());
    }
}
