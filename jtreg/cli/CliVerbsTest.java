/*
 * @test id=startup
 * @summary Every verb of the operator's command on a JVM started with the agent: list shows
 *          the pid, main class, JDK version and state; status; top puts the workload's
 *          retaining site first with its class; dump -o writes pprof (go tool pprof reads
 *          it), HTML, collapsed and the text report, as the operator's files; stop/start;
 *          paths -n 2 prints a chain; help; --version. The application's output and exit
 *          code are its own; no file is left behind. Also paths -o, dump --paths, load --lib
 * @library /lib
 * @build CliTarget
 * @run driver CliVerbsTest startup
 */
/*
 * @test id=load
 * @summary The same verbs on a JVM started without the agent: list shows it not loaded,
 *          status says the agent is not loaded (exit 7), load prints the effective options,
 *          then every verb as above
 * @library /lib
 * @build CliTarget
 * @run driver CliVerbsTest load
 */
import heapsampler.Cli;
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

public class CliVerbsTest {
    static final Duration BOUND = Duration.ofSeconds(20);
    static final List<Path> TMP = List.of(Paths.get("/tmp"));

    public static void main(String[] args) throws Exception {
        boolean startup = args[0].equals("startup");
        Set<Path> before = Cli.leftovers(TMP);
        Cli.Target t = (startup ? Cli.Target.withAgent("interval=16k,rate=0") : Cli.Target.withoutAgent())
                .jvmFlags("-Xmx128m", "-XX:+EnableDynamicAgentLoading");
        try (t) {
            t.start("CliTarget");
            String pid = t.pidString();
            if (startup) {
                listShows(pid, true);
            } else {
                listShows(pid, false);
                Cli.run("status", pid).assertFailure(Cli.EXIT_NOT_LOADED, BOUND, "not loaded");
                // --lib: a copy elsewhere is the one loaded
                Path copy = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-lib"))
                        .resolve("libheapsampler.so");
                Files.copy(heapsampler.AgentRunner.agentLibrary(), copy);
                Cli.run("load", pid, "interval=16k,rate=0", "--lib", copy.toString()).assertOk().assertStdoutContains("interval");
                if (!Cli.readProc(Paths.get("/proc/" + pid + "/maps")).contains(copy.toString())) {
                    throw new AssertionError("load --lib " + copy + ": the JVM did not map it");
                }
                listShows(pid, true);
                t.command("retain", "retained"); // allocated while the agent samples
            }
            Cli.run("status", pid).assertOk().assertStdoutContains("state: running")
                    .assertStdoutContains("interval: 16384");
            top(pid);
            dumps(t);
            paths(t); // before stop: stop releases the tracked objects
            Cli.run("stop", pid).assertOk();
            Cli.run("status", pid).assertOk().assertStdoutContains("state: stopped");
            Cli.run("start", pid, "interval=32k").assertOk();
            Cli.run("status", pid).assertOk().assertStdoutContains("state: running")
                    .assertStdoutContains("interval: 32768");
            help();
            Cli.run("--version").assertOk().assertStdoutMatches("\\b\\d+\\.\\d+\\.\\d+\\b");
            t.assertUndisturbed(CliTarget.EXIT_CODE);
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp"), t.dir()), t.pid());
        }
    }

    /** list: one line with the pid, the main class, the JDK's version and whether loaded. */
    static void listShows(String pid, boolean loaded) throws Exception {
        Cli.Result r = Cli.run("list").assertOk();
        Optional<String> line = r.stdout.lines().filter(l -> l.matches("\\s*" + pid + "\\b.*")).findFirst();
        if (line.isEmpty()) r.fail("no line for pid " + pid);
        String version = Integer.toString(Runtime.version().feature());
        if (!line.get().contains("CliTarget")) r.fail("the line of " + pid + " lacks the main class");
        if (!line.get().matches(".*\\b" + version + "\\b.*")) r.fail("the line of " + pid + " lacks JDK " + version);
        String l = line.get().trim();
        boolean saysNotLoaded = l.endsWith(" -") || l.contains("not loaded");
        if (loaded && (saysNotLoaded || !l.contains("loaded"))) r.fail("the line of " + pid + " does not say loaded");
        if (!loaded && !saysNotLoaded) r.fail("the line of " + pid + " does not say not loaded");
    }

    /** top: the first row is CliTarget.retain -> byte[]; --stack adds the whole stack. */
    static void top(String pid) throws Exception {
        Cli.run("top", pid).assertOk().assertFirstRow("CliTarget.retain", "byte[]");
        Cli.Result n = Cli.run("top", pid, "-n", "2", "--by", "alloc").assertOk().assertFirstRow();
        if (n.stdout.lines().anyMatch(l -> l.matches("\\s*3\\s.*"))) n.fail("-n 2 printed a third row");
        Cli.run("top", pid, "--by", "growth").assertOk();
        Cli.run("top", pid, "--stack").assertOk().assertStdoutContains("CliTarget.main");
    }

    /** dump -o in every format, into a directory that is not the target's. */
    static void dumps(Cli.Target t) throws Exception {
        Path out = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-out"));
        String pid = t.pidString();

        Path pb = out.resolve("x.pb.gz");
        Cli.run("dump", pid, "-o", pb.toString()).assertOk().assertStdoutContains(pb.toString());
        assertOperatorOwns(pb);
        Pprof p = Pprof.read(pb).validate();
        long live = p.sum("inuse_space", s -> p.hasFrame(s, "CliTarget.retain") && p.leafName(s).equals("byte[]"));
        long truth = (long) CliTarget.RETAINED_COUNT * (CliTarget.RETAINED_SIZE + 16);
        // 20 MB at 16k: ~1200 samples, sigma ~3 %; 25 % is far outside sampling error. rate=0:
        // what is checked here is that the command carries the agent's figure, not the cap's
        // precision (RateCapTest, PeakCapTest; a startup burst like this one under the default
        // cap: test_throttle's "a short burst at startup spends the loan", sigma ~3 % more)
        // JDK 11's own sampler over-samples these 10 KB arrays (+28 % in every run here, the
        // profile's "sampler bias" comment; README, "JDKs and collectors"): its bound is wider.
        double high = Runtime.version().feature() < 17 ? 1.45 : 1.25;
        if (live < truth * 0.75 || live > truth * high) {
            throw new AssertionError("x.pb.gz: CliTarget.retain in use " + live + " bytes, retained " + truth);
        }
        Optional<Path> go = GoPprof.findGo();
        if (go.isPresent()) {
            GoPprof.Result g = GoPprof.pprof(go.get(), "-top", "-sample_index=inuse_space", pb.toString())
                    .assertSuccess();
            if (!g.stdout().contains("CliTarget.retain")) throw new AssertionError("go tool pprof -top lacks CliTarget.retain");
        } else {
            System.out.println("skipped the go tool pprof check: go not found");
        }

        Path html = out.resolve("x.html");
        Cli.run("dump", pid, "-o", html.toString()).assertOk().assertStdoutContains(html.toString());
        assertOperatorOwns(html);
        String page = Files.readString(html);
        if (!page.contains("<html") || !page.contains("CliTarget.retain")) throw new AssertionError("x.html is not the flame graph");

        Path collapsed = out.resolve("x.collapsed");
        Cli.run("dump", pid, "-o", collapsed.toString()).assertOk();
        assertOperatorOwns(collapsed);
        if (Files.readAllLines(collapsed).stream().noneMatch(l -> l.matches(".*CliTarget\\.retain.*;.*byte\\[\\].* \\d+"))) {
            throw new AssertionError("x.collapsed has no 'frames;... count' line of CliTarget.retain:\n" + Files.readString(collapsed));
        }

        Path txt = out.resolve("x.txt");
        Cli.run("dump", pid, "-o", txt.toString()).assertOk();
        assertOperatorOwns(txt);
        String report = Files.readString(txt);
        if (!report.contains("CliTarget.retain") || !report.contains("byte[]")) throw new AssertionError("x.txt:\n" + report);
        try (var files = Files.list(out)) { // no temporary file beside them
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().collect(java.util.stream.Collectors.toList());
            if (!names.equals(List.of("x.collapsed", "x.html", "x.pb.gz", "x.txt"))) throw new AssertionError(out + " holds " + names);
        }
    }

    static void assertOperatorOwns(Path file) throws Exception {
        Object uid = Files.getAttribute(file, "unix:uid");
        Object me = Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
        if (!uid.equals(me)) throw new AssertionError(file + " belongs to uid " + uid + ", not " + me);
    }

    /**
     * paths -n 2: indented chains from a root down to the retained byte[]; paths -o and
     * dump --paths write them as pprof.
     */
    static void paths(Cli.Target t) throws Exception {
        String pid = t.pidString();
        Path out = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-paths"));
        Path p = out.resolve("p.pb.gz");
        Cli.run("paths", pid, "-n", "1", "-o", p.toString()).assertOk();
        assertHasHolder(p);
        Path d = out.resolve("d.pb.gz");
        Cli.run("dump", pid, "-o", d.toString(), "--paths", "1").assertOk();
        Pprof.read(d).validate();
        assertHasHolder(out.resolve("d-paths.pb.gz"));

        Cli.Result r = Cli.run("paths", pid, "-n", "2").assertOk();
        List<String> lines = r.stdout.lines().collect(java.util.stream.Collectors.toList());
        int holder = -1, leaf = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (holder < 0 && lines.get(i).contains("CliTarget.HOLDER")) holder = i;
            if (holder >= 0 && leaf < 0 && lines.get(i).contains("byte[]")) leaf = i;
        }
        if (holder < 0 || leaf < 0) r.fail("no chain from CliTarget.HOLDER down to byte[]");
        if (indent(lines.get(leaf)) <= indent(lines.get(holder))) r.fail("the chain is not indented");
    }

    static void assertHasHolder(Path file) throws Exception {
        Pprof p = Pprof.read(file).validate();
        if (p.samples.stream().noneMatch(s -> p.stackNames(s).contains("CliTarget.HOLDER"))) {
            throw new AssertionError(file + ": no path through CliTarget.HOLDER");
        }
    }

    static int indent(String line) {
        int i = 0;
        while (i < line.length() && !Character.isLetterOrDigit(line.charAt(i)) && line.charAt(i) != '[') i++;
        return i;
    }

    static void help() throws Exception {
        Cli.Result r = Cli.run("help").assertOk();
        for (String verb : List.of("list", "load", "status", "dump", "top", "start", "stop", "paths", "help", "--version")) {
            r.assertStdoutContains(verb);
        }
    }
}
