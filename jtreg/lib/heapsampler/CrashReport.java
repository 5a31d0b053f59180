/*
 * CrashReport: what a child JVM that crashed leaves behind, kept where it outlives the test.
 *
 * A child's hs_err_pid*.log lands in its run directory (-XX:ErrorFile), which lies in
 * jtreg's scratch directory: jtreg empties that before the next test, so a crash seen once
 * in CI (a SIGSEGV in libjvm) left nothing to read. When a child crashed (an hs_err file,
 * the fatal-error banner, or death by a signal the JVM's error handler ends in), its report
 * is printed to the test's stdout, bounded (MAX_LINES lines from the top: the signal, the
 * problematic frame, the crashing thread and its native and Java stacks), so that it is in
 * the test's .jtr log, and copied whole into directory(): $HEAPSAMPLER_CRASH_DIR
 * (scripts/run-jtreg.sh sets it and prints the reports of the tests that failed), else
 * hs_err/ in jtreg's work directory. Copies are named after the test and the run directory.
 */
package heapsampler;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class CrashReport {
    /** The first line of HotSpot's fatal-error banner (on stdout, and atop the hs_err file). */
    public static final String BANNER = "A fatal error has been detected";
    /** Lines of an hs_err file printed to the test's log; the kept copy has them all. */
    public static final int MAX_LINES = 200;
    private static final int MAX_LINE_CHARS = 400;
    private static final String SAVED_AS = "An error report file with more information is saved as:";

    private CrashReport() {
    }

    /** Where crash reports are kept: $HEAPSAMPLER_CRASH_DIR, else hs_err/ in jtreg's work
     * directory (found above ${test.classes}: WORK/classes/DIR/Test.d), else beside it. */
    public static Path directory() {
        String named = System.getenv("HEAPSAMPLER_CRASH_DIR");
        if (named != null && !named.isEmpty()) return Paths.get(named).toAbsolutePath();
        Path classes = Paths.get(System.getProperty("test.classes", "."))
                .toAbsolutePath().normalize();
        for (Path p = classes; p != null && p.getParent() != null; p = p.getParent()) {
            if (p.getFileName().toString().equals("classes")) return p.getParent().resolve("hs_err");
        }
        return classes.resolveSibling("hs_err");
    }

    /** Whether a child that ended so crashed: hs_err files, the banner, or a signal of the
     * JVM's error handler (SIGABRT after the report when it dumps core; without a core,
     * -XX:-CreateCoredumpOnCrash as the runners start it, it exits 1; SIGSEGV, SIGBUS,
     * SIGILL, SIGFPE when it could not run). A child killed by the runner (SIGKILL, 137) did
     * not crash. */
    public static boolean crashed(int exitCode, String stdout, String stderr, List<Path> logs) {
        int signal = exitCode > 128 ? exitCode - 128 : 0;
        return !logs.isEmpty() || stdout.contains(BANNER) || stderr.contains(BANNER)
                || signal == 6 || signal == 11 || signal == 7 || signal == 4 || signal == 8;
    }

    /**
     * If the child (its run directory, exit code and output) crashed: prints each of its
     * hs_err files (MAX_LINES lines) to stdout and copies it into directory(). Returns the
     * copies (none when it did not crash). Never throws: a report that cannot be kept is
     * said so on stdout, and the test goes on to judge the run.
     */
    public static List<Path> keep(String who, Path runDir, int exitCode, String stdout, String stderr) {
        List<Path> logs = logsOf(runDir, stdout);
        if (!crashed(exitCode, stdout, stderr, logs)) return Collections.emptyList();
        System.out.println("==== " + who + " (" + runDir.getFileName() + ") crashed, exit code "
                + exitCode + ": " + (logs.isEmpty() ? "no hs_err file in " + runDir
                + " nor named by its banner" : logs.size() + " hs_err file(s)"));
        List<Path> kept = new ArrayList<>();
        for (Path log : logs) {
            Path copy = copy(log, runDir);
            if (copy != null) kept.add(copy);
            print(log, copy);
        }
        return kept;
    }

    /* hs_err files in the run directory, and the one the banner names if it is elsewhere
     * (the JVM falls back to its cwd or /tmp when -XX:ErrorFile cannot be written). */
    private static List<Path> logsOf(Path runDir, String stdout) {
        List<Path> logs = new ArrayList<>();
        try (Stream<Path> files = Files.list(runDir)) {
            logs.addAll(files.filter(p -> p.getFileName().toString().startsWith("hs_err_pid"))
                    .sorted().collect(Collectors.toList()));
        } catch (IOException e) {
            System.out.println("cannot list " + runDir + ": " + e);
        }
        List<String> lines = stdout.lines().collect(Collectors.toList());
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (!lines.get(i).contains(SAVED_AS)) continue;
            Path named = Paths.get(lines.get(i + 1).replaceFirst("^#\\s*", "").trim());
            if (named.isAbsolute() && Files.isRegularFile(named) && !logs.contains(named)) {
                logs.add(named);
            }
        }
        return logs;
    }

    private static Path copy(Path log, Path runDir) {
        String test = System.getProperty("test.name", "test").replaceAll("[^A-Za-z0-9_.-]", "_");
        Path dir = directory();
        Path copy = dir.resolve(test + "-" + runDir.getFileName() + "-" + log.getFileName());
        try {
            Files.createDirectories(dir);
            return Files.copy(log, copy, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            System.out.println("cannot keep " + log + " as " + copy + ": " + e);
            return null;
        }
    }

    private static void print(Path log, Path copy) {
        System.out.println("==== " + log + (copy == null ? "" : ", kept as " + copy)
                + " (its first " + MAX_LINES + " lines):");
        int shown = 0;
        int more = 0;
        try (BufferedReader in = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (shown == MAX_LINES) {
                    more++;
                    continue;
                }
                System.out.println(line.length() <= MAX_LINE_CHARS ? line
                        : line.substring(0, MAX_LINE_CHARS) + " [...]");
                shown++;
            }
        } catch (IOException e) {
            System.out.println("(cannot read " + log + ": " + e + ")");
        }
        System.out.println("==== end of " + log.getFileName()
                + (more > 0 ? " (" + more + " more lines in the kept copy)" : ""));
    }
}
