/*
 * @test
 * @summary http=0 (a free port, shown in the startup line and in status): go tool pprof
 *          reads /debug/pprof/heap from the running JVM; curl gets heap and allocs as Go
 *          serves them (Content-Type, Content-Disposition, the four sample types in Go's
 *          order, default inuse_space / alloc_space), a ?seconds=1 delta covering about a
 *          second, the index, the flame graph, the top report as text, 405, 404 and 400;
 *          20 concurrent clients while the application allocates are each answered (a
 *          valid profile, or 503 past the connection limit) and none hangs; the JVM exits
 *          with its own code
 * @library /lib
 * @build HttpWorkload Endpoint
 * @run driver HttpEndpointTest
 */
import heapsampler.AgentRunner;
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

public class HttpEndpointTest {
    static final String SITE = "HttpWorkload.allocate";
    static final List<String> GO_TYPES = List.of("alloc_objects/count", "alloc_space/bytes",
            "inuse_objects/count", "inuse_space/bytes");

    public static void main(String[] args) throws Exception {
        Path go = GoPprof.requireGo();
        Endpoint.curl();
        Endpoint e = Endpoint.start("endpoint", "http=0,interval=64k,log=info",
                "-XX:+EnableDynamicAgentLoading");
        try {
            Thread.sleep(1500); /* some allocation and a GC or two first */
            goToolPprof(go, e);
            heapAndAllocs(e);
            delta(e);
            otherRoutes(e);
            concurrentClients(e);
            String status = Endpoint.jcmd(e.jvm.process.pid(), "status");
            System.out.println("jcmd status: " + status);
        } catch (Throwable t) {
            e.jvm.close(); /* no child left behind */
            throw t;
        }
        AgentRunner.Result r = e.stop();
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");
        // status (printed on the JVM's stdout) names the port chosen
        r.assertStdoutContains("heapsampler: http: serving on 127.0.0.1:" + e.port + ", ");
        r.assertAgentLine("http: serving /debug/pprof/ (heap, allocs, top) and /flamegraph on "
                + "http://127.0.0.1:" + e.port);
        Pprof.read(r.file("heapsampler-" + e.jvm.process.pid() + ".pb.gz")).validate();
    }

    static void goToolPprof(Path go, Endpoint e) throws Exception {
        GoPprof.Result top = GoPprof.pprof(go, "-top", e.url("/debug/pprof/heap")).assertSuccess();
        if (!top.stdout().contains(SITE)) throw new AssertionError("go tool pprof -top lacks " + SITE);
        if (!top.stdout().contains("Type: inuse_space")) {
            throw new AssertionError("go tool pprof should show inuse_space by default");
        }
        GoPprof.Result allocs = GoPprof.pprof(go, "-top", e.url("/debug/pprof/allocs")).assertSuccess();
        if (!allocs.stdout().contains("Type: alloc_space")) {
            throw new AssertionError("/debug/pprof/allocs should default to alloc_space");
        }
    }

    static Pprof profileOf(Endpoint.Fetch f) throws Exception {
        return Pprof.parse(f.body()).validate();
    }

    static void heapAndAllocs(Endpoint e) throws Exception {
        for (String name : List.of("heap", "allocs")) {
            Endpoint.Fetch f = e.fetch("/debug/pprof/" + name).assertStatus(200)
                    .assertHeader("Content-Type: application/octet-stream")
                    .assertHeader("Content-Disposition: attachment; filename=\"" + name + "\"")
                    .assertHeader("X-Content-Type-Options: nosniff");
            if (!Pprof.isGzip(f.body())) throw new AssertionError(name + " is not gzipped");
            Pprof p = profileOf(f);
            List<String> types = p.sampleTypes.stream().map(Object::toString).toList();
            if (!types.equals(GO_TYPES)) throw new AssertionError(name + ": sample types " + types);
            String expected = name.equals("heap") ? "inuse_space" : "alloc_space";
            if (!p.defaultSampleType.equals(expected)) {
                throw new AssertionError(name + ": default sample type " + p.defaultSampleType);
            }
            if (p.sumWithFrame("alloc_space", SITE) <= 0) throw new AssertionError(name + ": no " + SITE);
            // the whole run: from the agent's start to now
            long ageMillis = System.currentTimeMillis() - p.timeNanos / 1_000_000;
            if (ageMillis < 1000 || p.durationNanos < 1_000_000_000L) {
                throw new AssertionError(name + ": not the whole run: starts " + ageMillis
                        + " ms ago, lasts " + p.durationNanos + " ns");
            }
        }
        // HEAD: the headers, with the length a GET would have
        Endpoint.Fetch head = e.fetch("/debug/pprof/heap", "-I").assertStatus(200)
                .assertHeader("Content-Type: application/octet-stream");
        if (!head.headers().matches("(?s).*Content-Length: [1-9][0-9]*\r\n.*")) {
            throw new AssertionError("HEAD: " + head.headers());
        }
    }

    static void delta(Endpoint e) throws Exception {
        long t0 = System.nanoTime();
        Endpoint.Fetch f = e.fetch("/debug/pprof/allocs?seconds=1").assertStatus(200)
                .assertHeader("Content-Disposition: attachment; filename=\"allocs-delta\"");
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        Pprof p = profileOf(f);
        if (tookMs < 1000) throw new AssertionError("the delta came after " + tookMs + " ms");
        if (p.durationNanos < 900_000_000L || p.durationNanos > 5_000_000_000L) {
            throw new AssertionError("delta of ?seconds=1 lasts " + p.durationNanos + " ns");
        }
        if (p.comments.stream().noneMatch(c -> c.startsWith("delta served over HTTP"))) {
            throw new AssertionError("no delta comment: " + p.comments);
        }
        long inDelta = p.sumWithFrame("alloc_space", SITE);
        Pprof whole = profileOf(e.fetch("/debug/pprof/allocs").assertStatus(200));
        long inWhole = whole.sumWithFrame("alloc_space", SITE);
        System.out.printf("%s alloc_space: delta of 1 s %d, whole run %d%n", SITE, inDelta, inWhole);
        if (inDelta <= 0 || inDelta >= inWhole) {
            throw new AssertionError("the delta (" + inDelta + ") should be a part of the run ("
                    + inWhole + ")");
        }
    }

    static void otherRoutes(Endpoint e) throws Exception {
        Endpoint.Fetch index = e.fetch("/debug/pprof/").assertStatus(200)
                .assertHeader("Content-Type: text/html; charset=utf-8");
        if (!index.bodyText().contains("<a href='allocs?debug=1'>allocs</a>")) {
            throw new AssertionError("index: " + index.bodyText());
        }
        Endpoint.Fetch flame = e.fetch("/flamegraph").assertStatus(200)
                .assertHeader("Content-Type: text/html; charset=utf-8");
        if (!flame.bodyText().contains(SITE)) throw new AssertionError("the flame graph lacks " + SITE);
        Endpoint.Fetch top = e.fetch("/debug/pprof/top").assertStatus(200)
                .assertHeader("Content-Type: text/plain; charset=utf-8");
        if (!top.bodyText().contains(SITE)) {
            throw new AssertionError("top lacks " + SITE + ":\n" + top.bodyText());
        }
        e.fetch("/debug/pprof/heap", "-X", "POST").assertStatus(405).assertHeader("Allow: GET, HEAD");
        e.fetch("/debug/pprof/heap", "-X", "DELETE").assertStatus(405);
        e.fetch("/debug/pprof/goroutine").assertStatus(404);
        e.fetch("/nothing/here").assertStatus(404);
        Endpoint.Fetch bad = e.fetch("/debug/pprof/heap?seconds=-5").assertStatus(400)
                .assertHeader("Content-Type: text/plain; charset=utf-8");
        if (!bad.bodyText().equals("invalid value for \"seconds\" - must be a positive integer\n")) {
            throw new AssertionError("400 body: " + bad.bodyText());
        }
        e.fetch("/debug/pprof/heap?seconds=301").assertStatus(400);
    }

    /* 20 clients at once (Java's HttpClient, each its own connection): every one gets an
     * answer within the time limit, a valid profile or 503 past the connection limit. */
    static void concurrentClients(Endpoint e) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String path = i % 2 == 0 ? "/debug/pprof/heap" : "/debug/pprof/allocs";
            answers.add(pool.submit(() -> HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(10)).build()
                    .send(HttpRequest.newBuilder(URI.create(e.url(path)))
                            .timeout(Duration.ofSeconds(60)).build(),
                            HttpResponse.BodyHandlers.ofByteArray())));
        }
        int ok = 0, busy = 0;
        for (Future<HttpResponse<byte[]>> f : answers) {
            HttpResponse<byte[]> resp = f.get(120, TimeUnit.SECONDS);
            if (resp.statusCode() == 200) {
                Pprof.parse(resp.body()).validate();
                ok++;
            } else if (resp.statusCode() == 503) {
                busy++;
            } else {
                throw new AssertionError("a concurrent client got " + resp.statusCode());
            }
        }
        pool.shutdownNow();
        System.out.println("20 concurrent clients: " + ok + " profiles, " + busy + " answered 503");
        if (ok < 8) throw new AssertionError("only " + ok + " of 20 concurrent clients got a profile");
    }
}
