/*
 * @test
 * @summary The endpoint opened on a running JVM by the operator's command, read by real
 *          clients: `heapsampler start PID --http` on a taken port, a non-loopback address
 *          without a token and an unreadable token file fails (exit 9, the agent's reason)
 *          while the application runs on; --http 127.0.0.1:0 serves a free port that the
 *          answer and status show; the index lists gc=1 and debug=1; ?debug=1 is Go's legacy
 *          text heap profile, which go tool pprof reads from the URL (names from
 *          /debug/pprof/symbol); go tool pprof -top reads /debug/pprof/heap; ?gc=1 forces a
 *          collection (X-Heapsampler-Gc) after which a set whose objects died after
 *          promotion is confirmed in use within 4 sigma of what the program holds; top --gc
 *          and dump --gc force one too; stop closes the endpoint and start opens it again,
 *          on the same port (asked for as port 0)
 * @library /lib
 * @build PromotedHttpWorkload Endpoint
 * @run driver HttpStartTest
 */
import heapsampler.Cli;
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class HttpStartTest {
    static final Duration BOUND = Duration.ofSeconds(30);
    static final long INTERVAL = 16 * 1024;
    static final String SITE = "PromotedHttpWorkload.keepHere";
    static final Pattern SERVED = Pattern.compile("http: serving on http://127\\.0\\.0\\.1:(\\d+)/debug/pprof/");

    public static void main(String[] args) throws Exception {
        Endpoint.curl();
        var go = GoPprof.requireGo();
        Cli.Target t = Cli.Target.withAgent("interval=16k,rate=0,log=info")
                .jvmFlags("-XX:+UseG1GC", "-Xms1g", "-Xmx1g", "-Xmn64m", "-XX:MaxTenuringThreshold=1",
                        "-XX:+EnableDynamicAgentLoading");
        try (t) {
            t.start("PromotedHttpWorkload");
            String pid = t.pidString();
            refusals(pid);
            int port = serving(Cli.run("start", pid, "--http", "127.0.0.1:0").assertOk());
            Cli.run("status", pid).assertOk().assertStdoutContains("http: serving on 127.0.0.1:" + port);
            String base = "http://127.0.0.1:" + port;
            String index = Endpoint.fetchUrl(base + "/debug/pprof/").assertStatus(200).bodyText();
            if (!index.contains("?gc=1") || !index.contains("?debug=1")) throw new AssertionError(index);
            Endpoint.Fetch text = Endpoint.fetchUrl(base + "/debug/pprof/heap?debug=1").assertStatus(200)
                    .assertHeader("Content-Type: text/plain; charset=utf-8");
            if (!text.bodyText().startsWith("heap profile: ") || !text.bodyText().contains("\t" + SITE + "+0x0\t"))
                throw new AssertionError("debug=1 is not Go's legacy heap text:\n" + text.bodyText());
            if (text.headers().contains("X-Go-Pprof") || text.headers().contains("Content-Disposition"))
                throw new AssertionError("debug=1 headers, as Go's: " + text.headers());
            GoPprof.Result top = GoPprof.pprof(go, "-top", base + "/debug/pprof/heap");
            if (top.exitCode() != 0 || !top.stdout().contains(SITE)) throw new AssertionError("go tool pprof -top");
            /* go tool pprof URL?debug=1: the legacy parser, then /debug/pprof/symbol for names */
            GoPprof.Result legacy = GoPprof.pprof(go, "-top", "-sample_index=inuse_space",
                    base + "/debug/pprof/heap?debug=1").assertSuccess();
            if (!legacy.stdout().contains(SITE) || !legacy.stdout().contains("Type: inuse_space"))
                throw new AssertionError("go tool pprof of heap?debug=1 lacks " + SITE);
            confirmedAfterGc(base);
            Cli.run("top", pid, "--gc", "-n", "3").assertOk().assertStdoutContains("keepHere");
            java.nio.file.Path dump = t.dir().resolveSibling(t.dir().getFileName() + "-gc.pb.gz");
            Cli.run("dump", pid, "-o", dump.toString(), "--gc").assertOk();
            if (!Pprof.read(dump).validate().comments.stream().anyMatch(c -> c.contains("forced collection (gc=1)"))) {
                throw new AssertionError("dump --gc: no forced collection in the liveness comment");
            }
            Cli.run("stop", pid).assertOk().assertStdoutContains("http: closed");
            Endpoint.Fetch closed = Endpoint.fetchUrl(base + "/debug/pprof/heap");
            if (closed.exitCode() != 7) throw new AssertionError("after stop, curl exit " + closed.exitCode());
            int again = serving(Cli.run("start", pid).assertOk().assertStdoutContains("sampling started"));
            if (again != port) throw new AssertionError("port 0 moved across stop/start: " + port + " then " + again);
            t.assertUndisturbed(PromotedHttpWorkload.EXIT_CODE);
        }
    }

    static int serving(Cli.Result r) {
        Matcher m = SERVED.matcher(r.stdout);
        if (!m.find()) r.fail("no address served in the answer");
        return Integer.parseInt(m.group(1));
    }

    /** Each refusal fails the command with the agent's reason; the JVM runs on. */
    static void refusals(String pid) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.run("start", pid, "--http", "127.0.0.1:" + taken.getLocalPort())
                    .assertFailure(Cli.EXIT_AGENT_ERROR, BOUND, "Address already in use");
        }
        Cli.run("start", pid, "--http", "0.0.0.0:0")
                .assertFailure(Cli.EXIT_AGENT_ERROR, BOUND, "not a loopback address", "http_token");
        Cli.run("start", pid, "--http", "0", "--http-token", "/no/such/token")
                .assertFailure(Cli.EXIT_AGENT_ERROR, BOUND, "http_token=@/no/such/token", "cannot read it");
        Cli.run("status", pid).assertOk().assertStdoutContains("http: off")
                .assertStdoutContains("state: running");
    }

    /** The dropped arrays are still weakly reachable (no marking since they died); after
     * ?gc=1 the site's confirmed in-use bytes are what the program holds. */
    static void confirmedAfterGc(String base) throws Exception {
        Pprof plain = Pprof.parse(Endpoint.fetchUrl(base + "/debug/pprof/heap").assertStatus(200).body());
        Endpoint.Fetch f = Endpoint.fetchUrl(base + "/debug/pprof/heap?gc=1").assertStatus(200)
                .assertHeader("X-Heapsampler-Gc: forced");
        Pprof forced = Pprof.parse(f.body()).validate();
        String comment = forced.comments.stream().filter(c -> c.startsWith("liveness: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no liveness comment"));
        if (!comment.contains("forced collection (gc=1)")) throw new AssertionError(comment);
        long size = forced.samples.stream().filter(site(forced)).flatMap(s -> s.labels().stream())
                .filter(l -> l.key().equals("bytes")).mapToLong(Pprof.Label::num).max().orElse(0);
        long n = PromotedHttpWorkload.KEPT, truth = n * size;
        double p = 1 - Math.exp(-(double) size / INTERVAL);
        double tolerance = 4 * Math.sqrt((1 - p) / (n * p)) * truth;
        long confirmed = forced.sum("inuse_space", site(forced).and(Pprof.withLabel("liveness", "confirmed")));
        long unjudged = forced.sum("inuse_space", site(forced).and(Pprof.withLabel("liveness", "unjudged")));
        System.out.printf("%s in use: plain %d; after gc=1 confirmed %d, unjudged %d; held %d ± %.0f%n",
                SITE, plain.sum("inuse_space", site(plain)), confirmed, unjudged, truth, tolerance);
        if (Math.abs(confirmed - truth) > tolerance || unjudged != 0) {
            throw new AssertionError("after gc=1: confirmed " + confirmed + ", unjudged " + unjudged
                    + ", held " + truth + " ± " + tolerance);
        }
        Endpoint.fetchUrl(base + "/debug/pprof/allocs?gc=1").assertStatus(200)
                .assertHeader("Content-Disposition: attachment; filename=\"allocs\"");
    }

    static Predicate<Pprof.Sample> site(Pprof p) {
        return p.allocatedIn("byte[]", SITE);
    }
}
