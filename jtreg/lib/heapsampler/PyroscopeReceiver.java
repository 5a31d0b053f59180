/*
 * PyroscopeReceiver: a stand-in for Grafana Pyroscope's ingester on 127.0.0.1, for the push
 * tests. It answers POST /ingest?name=SERVICE{labels}&from=&until=&format=pprof and checks
 * every rule the ingester applies (shared notes, fleet.md): the query (name, window, format),
 * the headers (Authorization, X-Scope-OrgID, when the test expects them), a gzipped body
 * that decodes as a valid pprof profile whose time_nanos/duration_nanos match from/until and
 * lie within [now - 1 h, now + 10 min], at most 16,000 samples, stacks at most 1,000 deep,
 * no numeric labels, sample type names without '-', valid UTF-8 everywhere. A profile that
 * breaks a rule is answered 400 and its violation recorded; the test asserts there are none.
 *
 * Faults, set at any time: FAIL_500, TOO_MANY (429 with Retry-After), HANG (never answers
 * until the mode changes or the receiver stops), and down()/up() (the port refuses
 * connections, then the same port serves again).
 */
package heapsampler;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

public final class PyroscopeReceiver implements AutoCloseable {
    public enum Mode { OK, FAIL_500, TOO_MANY, HANG }

    /** One accepted profile. */
    public static final class Received {
        public final String name;      // SERVICE{labels}, decoded
        public final long from, until; // seconds since the epoch
        public final Pprof profile;
        public final Path file;

        Received(String name, long from, long until, Pprof profile, Path file) {
            this.name = name;
            this.from = from;
            this.until = until;
            this.profile = profile;
            this.file = file;
        }
    }

    private final Path dir;
    private final String expectAuthorization; // null: none expected
    private final String expectTenant;        // null: none expected
    private final int port;
    private final List<Received> received = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private final Map<Mode, AtomicInteger> faultsAnswered = new LinkedHashMap<>();
    private volatile Mode mode = Mode.OK;
    private volatile int retryAfterSeconds = 1;
    private HttpServer server;
    private ExecutorService pool;

    public PyroscopeReceiver(Path dir, String expectAuthorization, String expectTenant) throws IOException {
        this.dir = dir;
        this.expectAuthorization = expectAuthorization;
        this.expectTenant = expectTenant;
        for (Mode m : Mode.values()) faultsAnswered.put(m, new AtomicInteger());
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        port = server.getAddress().getPort();
        startServer();
    }

    private void startServer() {
        pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "receiver");
            t.setDaemon(true);
            return t;
        });
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public void mode(Mode m) {
        mode = m;
    }

    public void retryAfter(int seconds) {
        retryAfterSeconds = seconds;
    }

    /** The port refuses connections from now on (hanging requests are cut). */
    public synchronized void down() {
        server.stop(0);
        pool.shutdownNow();
    }

    /** The same port serves again. */
    public synchronized void up() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        startServer();
    }

    public synchronized List<Received> received() {
        return new ArrayList<>(received);
    }

    public synchronized List<String> violations() {
        return new ArrayList<>(violations);
    }

    public int attempts() {
        return attempts.get();
    }

    public int faultsAnswered(Mode m) {
        return faultsAnswered.get(m).get();
    }

    /** Waits until at least n profiles were accepted; false after limitMillis. */
    public boolean awaitReceived(int n, long limitMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + limitMillis;
        while (System.currentTimeMillis() < end) {
            synchronized (this) {
                if (received.size() >= n) return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Override
    public void close() {
        mode = Mode.OK;
        server.stop(0);
        pool.shutdownNow();
    }

    // ---- answering -----------------------------------------------------------------------

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            attempts.incrementAndGet();
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readNBytes(16 << 20);
            }
            Mode m = mode;
            if (m == Mode.HANG) {
                faultsAnswered.get(m).incrementAndGet();
                long end = System.currentTimeMillis() + 120_000;
                while (mode == Mode.HANG && System.currentTimeMillis() < end) Thread.sleep(20);
                return; /* closed without an answer */
            }
            if (m == Mode.FAIL_500 || m == Mode.TOO_MANY) {
                faultsAnswered.get(m).incrementAndGet();
                if (m == Mode.TOO_MANY)
                    ex.getResponseHeaders().add("Retry-After", Integer.toString(retryAfterSeconds));
                answer(ex, m == Mode.TOO_MANY ? 429 : 500, "injected fault");
                return;
            }
            String problem = check(ex, body);
            answer(ex, problem == null ? 200 : 400, problem == null ? "" : problem);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(HttpExchange ex, int status, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) ex.getResponseBody().write(b);
    }

    private synchronized String violation(String what) {
        violations.add(what);
        return what;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null) return q;
        for (String item : raw.split("&")) {
            int eq = item.indexOf('=');
            if (eq > 0) q.put(item.substring(0, eq), URLDecoder.decode(item.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    /** null when the request obeys every rule, else the first rule broken (recorded). */
    private String check(HttpExchange ex, byte[] body) throws IOException {
        if (!ex.getRequestMethod().equals("POST")) return violation("method " + ex.getRequestMethod());
        if (!ex.getRequestURI().getPath().equals("/ingest")) return violation("path " + ex.getRequestURI().getPath());
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        if (!"pprof".equals(q.get("format"))) return violation("format=" + q.get("format"));
        String name = q.get("name");
        if (name == null || !name.matches("[^{}]+\\{([a-zA-Z_][a-zA-Z0-9_]*=[^,{}=]+(,[a-zA-Z_][a-zA-Z0-9_]*=[^,{}=]+)*)?\\}"))
            return violation("name=" + name);
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (expectAuthorization != null && !expectAuthorization.equals(auth)) return violation("Authorization header missing or wrong");
        if (expectAuthorization == null && auth != null) return violation("unexpected Authorization header");
        String tenant = ex.getRequestHeaders().getFirst("X-Scope-OrgID");
        if (expectTenant != null && !expectTenant.equals(tenant)) return violation("X-Scope-OrgID " + tenant);
        long from, until;
        try {
            from = Long.parseLong(q.get("from"));
            until = Long.parseLong(q.get("until"));
        } catch (RuntimeException e) {
            return violation("from/until " + q.get("from") + "/" + q.get("until"));
        }
        long now = System.currentTimeMillis() / 1000;
        if (from > until || from < now - 3600 || until > now + 600)
            return violation("window " + from + ".." + until + " at " + now);
        if (!Pprof.isGzip(body)) return violation("body not gzipped");
        Path file;
        synchronized (this) {
            file = dir.resolve("pushed-" + (received.size() + violations.size()) + "-" + from + ".pb.gz");
        }
        Files.write(file, body);
        Pprof p;
        try {
            p = Pprof.read(file).validate();
        } catch (IOException | RuntimeException | AssertionError e) {
            return violation("not a valid profile: " + e);
        }
        if (Pprof.gunzip(body).length > 4 << 20) return violation("over 4 MiB uncompressed");
        String rule = profileRule(p, from, until);
        if (rule != null) return violation(rule);
        List<String> bad = Pprof.invalidUtf8Strings(file);
        if (!bad.isEmpty()) return violation("invalid UTF-8: " + bad);
        synchronized (this) {
            received.add(new Received(name, from, until, p, file));
        }
        return null;
    }

    private static String profileRule(Pprof p, long from, long until) {
        long start = p.timeNanos / 1_000_000_000L, end = (p.timeNanos + p.durationNanos + 999_999_999L) / 1_000_000_000L;
        if (start != from || end != until) return "time_nanos/duration_nanos " + start + ".." + end + " vs from/until " + from + ".." + until;
        if (p.samples.size() > 16_000) return p.samples.size() + " samples (more than 16,000)";
        for (Pprof.ValueType t : p.sampleTypes)
            if (t.type().contains("-")) return "sample type name with '-': " + t.type();
        for (Pprof.Sample s : p.samples) {
            if (s.locationIds().size() > 1000) return "stack of " + s.locationIds().size() + " frames";
            for (Pprof.Label l : s.labels())
                if (l.str().isEmpty()) return "numeric label " + l.key();
        }
        return null;
    }
}
