/*
 * Chromium: renders a local HTML file in headless Chromium, to test the page format=html
 * writes in a real browser.
 *
 * Where chromium is looked for: $HEAPSAMPLER_TEST_CHROMIUM (scripts/run-jtreg.sh passes
 * the one it finds), then chromium, chromium-browser, google-chrome in every directory of
 * $PATH and /usr/bin. CI installs Debian's chromium; elsewhere requireChromium() makes the
 * test a jtreg skip that says why.
 *
 * Every run gets its own profile directory and HOME under the test's scratch directory,
 * runs with --no-sandbox (CI runs as root, where Chromium's sandbox refuses to start) and
 * is killed, with every process it started, when it outlives its time limit, so a browser
 * can never hang the suite.
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

public final class Chromium {
    /** Seconds one browser run may take, before jtreg's -timeoutFactor. */
    static final long TIME_LIMIT_SECONDS = 60;
    static final String WINDOW = "--window-size=1280,1000";

    private Chromium() {
    }

    /** The chromium executable, if there is one. */
    public static Optional<Path> find() {
        List<String> candidates = new ArrayList<>();
        String configured = System.getenv("HEAPSAMPLER_TEST_CHROMIUM");
        if (configured != null && !configured.isEmpty()) candidates.add(configured);
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) dirs.addAll(Arrays.asList(path.split(File.pathSeparator)));
        dirs.add("/usr/bin");
        for (String dir : dirs) {
            if (dir.isEmpty()) continue;
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                candidates.add(Paths.get(dir, name).toString());
            }
        }
        return candidates.stream().map(Paths::get).filter(Files::isExecutable).findFirst();
    }

    /** The chromium executable, or a jtreg skip of the whole test when there is none. */
    public static Path require() {
        return find().orElseThrow(() -> new jtreg.SkippedException(
                "skipped: chromium not found (apt-get install chromium, or set "
                        + "HEAPSAMPLER_TEST_CHROMIUM)"));
    }

    /** The DOM of the page at file#fragment after its scripts ran, serialized as HTML. */
    public static String dumpDom(Path chromium, Path file, String fragment)
            throws IOException, InterruptedException {
        Path scratch = AgentRunner.newRunDirectory("chromium-dom");
        Path out = run(chromium, scratch, "--dump-dom", url(file, fragment));
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** A PNG screenshot of the page at file#fragment, 1280x1000. */
    public static Path screenshot(Path chromium, Path file, String fragment)
            throws IOException, InterruptedException {
        Path scratch = AgentRunner.newRunDirectory("chromium-png");
        Path png = scratch.resolve("screenshot.png");
        run(chromium, scratch, "--screenshot=" + png, url(file, fragment));
        if (!Files.isRegularFile(png)) throw new AssertionError("chromium wrote no " + png);
        return png;
    }

    static String url(Path file, String fragment) {
        return file.toAbsolutePath().toUri() + (fragment.isEmpty() ? "" : "#" + fragment);
    }

    /* Runs chromium headless with these last arguments; returns the file holding stdout. */
    private static Path run(Path chromium, Path scratch, String... last)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless",
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", "--mute-audio",
                "--user-data-dir=" + scratch.resolve("profile"), WINDOW));
        command.addAll(Arrays.asList(last));
        Path stdout = scratch.resolve("stdout.txt");
        Path stderr = scratch.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(scratch.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().put("HOME", scratch.toString());
        long start = System.nanoTime();
        Process process = builder.start();
        long limit = (long) (TIME_LIMIT_SECONDS * 1000 * AgentRunner.timeoutFactor());
        boolean finished = process.waitFor(limit, TimeUnit.MILLISECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
        String errors = Files.readString(stderr, StandardCharsets.UTF_8);
        System.out.println("chromium: " + String.join(" ", command) + "\n  "
                + (finished ? "exit " + process.exitValue() : "KILLED") + " after "
                + (System.nanoTime() - start) / 1_000_000 + " ms; stderr:\n" + errors);
        if (!finished) {
            throw new AssertionError("chromium did not finish within " + limit
                    + " ms and was killed: " + command);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("chromium failed with exit code " + process.exitValue()
                    + ": " + command + "\n" + errors);
        }
        return stdout;
    }
}
