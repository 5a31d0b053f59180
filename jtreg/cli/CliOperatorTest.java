/*
 * @test
 * @summary What operators reach for, on a JVM started without the agent whose sites have long
 *          names (CliWideTarget): help VERB and VERB --help; profile -d -o loads the agent,
 *          writes the file and stops sampling again (and, run again, starts and stops it, or
 *          leaves it running with a window of its own); COLUMNS honoured off a terminal, the
 *          middle of a frame cut and never its line or class, nothing cut in a pipe or in
 *          dump -o x.txt; top --by class with the unattributed rest; top --json and status
 *          --json parsed by a real JSON parser; start while running keeps what is tracked and
 *          status says the interval plainly; top after stop says so; paths in one unit with
 *          identical chains folded. The application's output and exit code are its own; the
 *          exit profile goes to the JVM's temp directory
 * @library /lib
 * @build CliTarget CliWideTarget
 * @run driver CliOperatorTest
 */
import heapsampler.Cli;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

public class CliOperatorTest {
    static final Duration BOUND = Duration.ofSeconds(10);
    static final String FRAME = "CliWideTarget.retainTheRecordsOfThisRequestInTheSessionCache";
    static final String CLASS = "CliWideTarget$AnAllocatedRecordWithAFairlyLongGeneratedName[]";
    static final String ELLIPSIS = "\u2026";

    public static void main(String[] args) throws Exception {
        help();
        Path tmpdir = heapsampler.AgentRunner.newRunDirectory("operator-tmp");
        Cli.Target t = Cli.Target.withoutAgent().jvmFlags("-Xmx128m", "-XX:+EnableDynamicAgentLoading",
                "-Djava.io.tmpdir=" + tmpdir);
        try (t) {
            t.start("CliWideTarget");
            String pid = t.pidString();
            Path out = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-out"));
            profileLoadsAndStops(t, out, tmpdir);
            Cli.run("start", pid).assertOk();
            t.command("retain", "retained"); // allocated while the agent samples
            widths(t, out);
            byClass(pid);
            json(pid);
            startWhileRunning(pid);
            paths(pid);
            topAfterStop(pid);
            Cli.run("profile", pid, "-d", "1s", "-o", out.resolve("stopped.html").toString()).assertOk()
                    .assertStdoutContains("stopped again");
            Cli.run("status", pid).assertOk().assertStdoutContains("state: stopped");
            Cli.run("start", pid).assertOk();
            Cli.Result window = Cli.run("profile", pid, "-d", "1s", "-o", out.resolve("window.txt").toString())
                    .assertOk().assertStdoutContains("left running");
            if (!Files.readString(out.resolve("window.txt")).contains("allocated")) window.fail("window.txt is not the report");
            Cli.run("status", pid).assertOk().assertStdoutContains("state: running");
            t.assertUndisturbed(CliWideTarget.EXIT_CODE);
            // loaded by attach without file=: the exit profile is in the JVM's temp directory
            Path exit = tmpdir.resolve("heapsampler-" + pid + ".pb.gz");
            if (!Files.exists(exit)) throw new AssertionError("no exit profile " + exit);
            Pprof.read(exit).validate();
            try (var files = Files.list(t.dir())) {
                List<String> mine = files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("heapsampler"))
                        .collect(Collectors.toList());
                if (!mine.isEmpty()) throw new AssertionError("the agent wrote into the JVM's working directory: " + mine);
            }
        }
    }

    /** help VERB and VERB --help print that verb's usage and its flags only. */
    static void help() throws Exception {
        for (List<String> words : List.of(List.of("help", "top"), List.of("top", "--help"), List.of("top", "42", "-h"))) {
            Cli.Result r = Cli.run(words.toArray(String[]::new)).assertOk()
                    .assertStdoutContains("usage: heapsampler top PID").assertStdoutContains("--by ORDER")
                    .assertStdoutContains("--json");
            if (r.stdout.contains("--lib")) r.fail("top's help lists a flag top does not take");
        }
        Cli.run("help", "profile").assertOk().assertStdoutContains("-d DURATION");
        Cli.run("help").assertOk().assertStdoutContains("heapsampler profile PID");
        Cli.run("help", "frobnicate").assertFailure(Cli.EXIT_USAGE, BOUND, "unknown verb");
    }

    /** profile on a JVM without the agent: loads it, writes the file, stops sampling again. */
    static void profileLoadsAndStops(Cli.Target t, Path out, Path tmpdir) throws Exception {
        String pid = t.pidString();
        Path pb = out.resolve("first.pb.gz");
        Cli.run("profile", pid, "interval=16k,rate=0", "-d", "2s", "-o", pb.toString()).assertOk()
                .assertStdoutContains("profiled " + pid).assertStdoutContains("sampling is stopped again");
        Pprof.read(pb).validate();
        Cli.run("profile", pid, "-d", "1s", "-o", pb.toString())
                .assertFailure(Cli.EXIT_FILE_EXISTS, BOUND, "exists"); // refused before touching the JVM
        Cli.run("status", pid).assertOk().assertStdoutContains("state: stopped")
                .assertStdoutContains("exit profile: " + tmpdir.resolve("heapsampler-" + pid + ".pb.gz"));
    }

    static int width(String line) {
        return line.codePointCount(0, line.length());
    }

    static String row(Cli.Result r, int rank) {
        return r.stdout.lines().filter(l -> l.matches("\\s*" + rank + "\\s.*")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + rank + "\n" + r.describe()));
    }

    /**
     * COLUMNS=80 off a terminal: no line wider, the two sites of one method still apart (their
     * lines and the class's name kept); no COLUMNS: every name whole, also in dump -o x.txt.
     */
    static void widths(Cli.Target t, Path out) throws Exception {
        String pid = t.pidString();
        Cli.Result narrow = Cli.runWith(List.of("/usr/bin/env", "COLUMNS=80"), "top", pid, "-n", "3").assertOk();
        for (String line : narrow.stdout.lines().collect(Collectors.toList())) {
            if (width(line) > 80) narrow.fail("COLUMNS=80, a line of " + width(line) + ": " + line);
        }
        String a = row(narrow, 1), b = row(narrow, 2);
        if (!a.contains(ELLIPSIS) || !a.contains(":" + CliWideTarget.LINE_A + " \u2192 ") || !a.endsWith("GeneratedName[]")) {
            narrow.fail("row 1 lost its line or its class: " + a);
        }
        if (!b.contains(":" + CliWideTarget.LINE_B + " \u2192 ") || !b.endsWith("GeneratedName[]")) {
            narrow.fail("row 2 lost its line or its class: " + b);
        }
        String whole = FRAME + ":" + CliWideTarget.LINE_A + " \u2192 " + CLASS;
        Cli.Result piped = Cli.run("top", pid, "-n", "3").assertOk().assertStdoutContains(whole);
        if (piped.stdout.contains(ELLIPSIS)) piped.fail("a pipe without COLUMNS got a cut name");
        Path txt = out.resolve("report.txt");
        Cli.run("dump", pid, "-o", txt.toString()).assertOk();
        String report = Files.readString(txt);
        if (!report.contains(whole) || report.contains(ELLIPSIS)) throw new AssertionError("dump -o x.txt cut a name:\n" + report);
    }

    /** --by class: the long-named class first (both sites together), the unattributed rest last. */
    static void byClass(String pid) throws Exception {
        Cli.Result r = Cli.run("top", pid, "--by", "class").assertOk().assertFirstRow(CLASS);
        if (r.stdout.lines().noneMatch(l -> l.startsWith("-") && l.endsWith("[heap not attributed to samples]"))) {
            r.fail("no unranked row of the unattributed heap");
        }
        // 6,000 arrays of 256 references: 6000 x (16 + 256 x 4) bytes with compressed oops
        // (at 16k about 380 samples, one standard error 5 %: 30 % is far outside it)
        Matcher m = Pattern.compile("\\d+(?:\\.\\d+)? (?:B|KiB|MiB|GiB)").matcher(row(r, 1));
        if (!m.find()) r.fail("row 1 has no in-use column");
        double inuse = bytes(m.group()), truth = 6000.0 * (16 + 256 * 4);
        // The class row is its sites together, on every JDK: the sum of the site rows of the
        // class, read from the same idle target.
        Cli.Result sites = Cli.run("top", pid, "-n", "50", "--json").assertOk();
        double siteSum = Double.parseDouble(Cli.jsonQuery(sites.stdout,
                "sum(r['inuse_bytes'] for r in d['rows'] if r['name'].endswith('\u2192 " + CLASS + "'))"));
        Cli.Result classes = Cli.run("top", pid, "--by", "class", "--json").assertOk();
        double classRow = Double.parseDouble(Cli.jsonQuery(classes.stdout,
                "[r['inuse_bytes'] for r in d['rows'] if r['name'] == '" + CLASS + "'][0]"));
        if (siteSum <= 0 || Math.abs(classRow - siteSum) > 0.001 * siteSum + 64) {
            classes.fail("class row " + classRow + " bytes, its sites together " + siteSum);
        }
        // Against the truth only on JDK 25+. The target's main thread retains the arrays, and
        // HotSpot drew its first sample gap when it created main, before the attach, at its
        // default 512 KiB: main allocates a mean 512 KiB of them before its first sample. The
        // agent weighs that sample for the whole gap (AttachGapTest), so the estimate is
        // unbiased, but one exponential gap of mean 512 KiB in 6.2 MB spreads it by 8 % more
        // than the 5 % of the 16k samples; and before JDK 25 HotSpot never counts down the
        // TLAB main filled before sampling was on (up to 512 KiB at -Xmx128m, 0.94 in 6 runs
        // on JDK 17, 0.72-1.10). Before the weight was right, 5 of about 30 JDK 17 runs read
        // 0.60-0.75.
        if (Runtime.version().feature() < 25) {
            System.out.println("in use " + inuse + " of " + truth + " retained (" + inuse / truth
                    + "): not judged on JDK " + Runtime.version().feature());
        } else if (inuse < truth * 0.7 || inuse > truth * 1.3) {
            r.fail("in use " + inuse + ", retained " + truth);
        }
    }

    static double bytes(String size) {
        String[] p = size.split(" ");
        double v = Double.parseDouble(p[0]);
        switch (p[1]) {
            case "KiB": return v * 1024;
            case "MiB": return v * 1024 * 1024;
            case "GiB": return v * 1024 * 1024 * 1024;
            default: return v;
        }
    }

    /** --json: parsed by Python's strict parser, the documented members there. */
    static void json(String pid) throws Exception {
        Cli.Result top = Cli.run("top", pid, "-n", "2", "--json").assertOk();
        String first = Cli.jsonQuery(top.stdout, "d['rows'][0]['name'] + '|' + str(d['rows'][0]['rank']) + '|' "
                + "+ str(d['rows'][0]['inuse_bytes'] > 0) + '|' + d['rows_are'] + '|' + str(d['rows_shown'])");
        String expected = FRAME + ":" + CliWideTarget.LINE_A + " \u2192 " + CLASS + "|1|True|sites|2";
        if (!first.equals(expected)) top.fail("top --json: " + first + ", expected " + expected);
        Cli.Result byClass = Cli.run("top", pid, "--by", "class", "--json").assertOk();
        String rest = Cli.jsonQuery(byClass.stdout, "[r['name'] for r in d['rows'] if r['rank'] is None][0]");
        if (!rest.equals("[heap not attributed to samples]")) byClass.fail("the unattributed row: " + rest);
        Cli.Result status = Cli.run("status", pid, "--json").assertOk();
        String facts = Cli.jsonQuery(status.stdout, "d['state'] + '|' + str(d['pid']) + '|' + d['exit_profile'] + '|' "
                + "+ str(d['late_commands']) + '|' + str(d['live']['tracked'] > 0)");
        if (!facts.matches("running\\|" + pid + "\\|/\\S+/heapsampler-" + pid + "\\.pb\\.gz\\|0\\|True")) {
            status.fail("status --json: " + facts);
        }
    }

    static long tracked(String pid) throws Exception {
        Cli.Result r = Cli.run("status", pid).assertOk();
        Matcher m = Pattern.compile("live: (\\d+) objects tracked").matcher(r.stdout);
        if (!m.find()) r.fail("no live: line");
        return Long.parseLong(m.group(1));
    }

    /** start interval= while sampling runs: changed in place, the tracked objects kept. */
    static void startWhileRunning(String pid) throws Exception {
        long before = tracked(pid);
        Cli.run("start", pid, "interval=32k").assertOk().assertStdoutContains("tracked objects kept");
        long after = tracked(pid);
        if (after < before / 2 || after == 0) throw new AssertionError("tracked " + before + " before start, " + after + " after");
        Cli.Result s = Cli.run("status", pid).assertOk()
                .assertStdoutContains("interval: 32768 bytes (one sample per 32.0 KiB allocated, on average; the run began at 16.0 KiB");
        if (s.stdout.contains("scaled to")) s.fail("the interval line is the old, confusing one");
        Cli.run("start", pid).assertFailure(Cli.EXIT_AGENT_ERROR, BOUND, "already running");
    }

    /** paths: one unit (no MB beside MiB), no false total of objects, identical chains folded. */
    static void paths(String pid) throws Exception {
        Cli.Result r = Cli.run("paths", pid, "-n", "1").assertOk().assertStdoutContains("path (the same for ");
        if (Pattern.compile("\\d (MB|GB|kB)\\b").matcher(r.stdout).find()) r.fail("a decimal unit beside MiB");
        if (r.stdout.contains("of ~")) r.fail("an object total the walk cannot know");
    }

    /** top after stop: says sampling is stopped, no in-use column of zeros. */
    static void topAfterStop(String pid) throws Exception {
        Cli.run("stop", pid).assertOk();
        Cli.Result r = Cli.run("top", pid).assertOk().assertStdoutContains("sampling is stopped");
        if (r.stdout.lines().anyMatch(l -> l.startsWith("#") && l.contains("in use"))) r.fail("an in-use column after stop");
    }
}
