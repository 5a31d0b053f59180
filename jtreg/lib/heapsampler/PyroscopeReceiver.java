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
 * from and until are read as Pyroscope reads them (pkg/og/util/attime): 19 digits are
 * nanoseconds, 16 microseconds, 13 milliseconds, others seconds; Received holds them in
 * nanoseconds, and the profile's time_nanos and time_nanos + duration_nanos must be exactly
 * them.
 *
 * Faults, set at any time: FAIL_500, TOO_MANY (429 with Retry-After), HANG (never answers
 * and records nothing until the mode changes or the receiver stops), and down()/up() (the
 * port refuses connections, then the same port serves again). Faults of a receiver that
 * takes the profile (it is checked and recorded, so a second copy shows as a duplicate):
 * TRICKLE_200 (answers 200 at once, then its 64-byte body one byte a second) and
 * NEVER_ANSWER (never answers until the client goes, the mode changes or the receiver
 * stops). Redirects: REDIRECT_LOOP (307 to the same URL), REDIRECT_FILE (307 to
 * file:///etc/passwd), REDIRECT (307 to redirectTo(URL) + the same path and query).
 *
 * https(dir, ...) serves over TLS with a self-signed certificate for 127.0.0.1 (made with
 * the JDK's keytool); certificatePem() is the file a client is told to trust.
 */
package heapsampler;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

public final class PyroscopeReceiver implements AutoCloseable {
    public enum Mode { OK, FAIL_500, TOO_MANY, HANG, TRICKLE_200, NEVER_ANSWER, REDIRECT_LOOP, REDIRECT_FILE, REDIRECT }

    /** One accepted profile. */
    public static final class Received {
        public final String name;      // SERVICE{labels}, decoded
        public final long from, until; // nanoseconds since the epoch
        public final Pprof profile;
        public final Path file;
        public final byte[] body;
        public final Mode mode;        // the mode it was received in

        Received(String name, long from, long until, Pprof profile, Path file, byte[] body, Mode mode) {
            this.name = name;
            this.from = from;
            this.until = until;
            this.profile = profile;
            this.file = file;
            this.body = body;
            this.mode = mode;
        }
    }

    private final Path dir;
    private final String expectAuthorization; // null: none expected
    private final String expectTenant;        // null: none expected
    private final int port;
    private final boolean tls;
    private final Path certificate; // PEM, with tls
    private volatile String redirectTo;
    private final List<Received> received = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private final Map<Mode, AtomicInteger> faultsAnswered = new LinkedHashMap<>();
    private volatile Mode mode = Mode.OK;
    private volatile int retryAfterSeconds = 1;
    private HttpServer server;
    private ExecutorService pool;

    public PyroscopeReceiver(Path dir, String expectAuthorization, String expectTenant) throws IOException {
        this(dir, expectAuthorization, expectTenant, null);
    }

    private PyroscopeReceiver(Path dir, String expectAuthorization, String expectTenant, SSLContext ssl)
            throws IOException {
        this.dir = dir;
        this.expectAuthorization = expectAuthorization;
        this.expectTenant = expectTenant;
        this.tls = ssl != null;
        this.certificate = tls ? dir.resolve("receiver-cert.pem") : null;
        for (Mode m : Mode.values()) faultsAnswered.put(m, new AtomicInteger());
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls) {
            HttpsServer https = HttpsServer.create(any, 16);
            https.setHttpsConfigurator(new HttpsConfigurator(ssl));
            server = https;
        } else {
            server = HttpServer.create(any, 16);
        }
        port = server.getAddress().getPort();
        startServer();
    }

    /** A receiver over TLS, its certificate (self-signed, for 127.0.0.1) in certificatePem(). */
    public static PyroscopeReceiver https(Path dir, String expectAuthorization, String expectTenant)
            throws IOException, GeneralSecurityException, InterruptedException {
        Path keystore = dir.resolve("receiver.p12");
        char[] password = "receiver".toCharArray();
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        run(keytool.toString(), "-genkeypair", "-alias", "receiver", "-keyalg", "EC", "-keystore",
                keystore.toString(), "-storetype", "PKCS12", "-storepass", "receiver", "-dname",
                "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2");
        run(keytool.toString(), "-exportcert", "-rfc", "-alias", "receiver", "-keystore",
                keystore.toString(), "-storepass", "receiver", "-file",
                dir.resolve("receiver-cert.pem").toString());
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, password);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        return new PyroscopeReceiver(dir, expectAuthorization, expectTenant, ssl);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new IOException(String.join(" ", command) + " failed:\n" + out);
    }

    public Path certificatePem() {
        return certificate;
    }

    /** Where Mode.REDIRECT sends requests (a base URL: the path and query are kept). */
    public void redirectTo(String baseUrl) {
        redirectTo = baseUrl;
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
        return (tls ? "https" : "http") + "://127.0.0.1:" + port;
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

    /** The same port serves again (plain HTTP receivers only). */
    public synchronized void up() throws IOException {
        if (tls) throw new IllegalStateException("up() after down() of a TLS receiver");
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
        try { /* not try (ex): HttpExchange is AutoCloseable only since JDK 14, lib/ is Java 11 */
            attempts.incrementAndGet();
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readNBytes(16 << 20);
            }
            Mode m = mode;
            if (m != Mode.OK) faultsAnswered.get(m).incrementAndGet();
            if (m == Mode.HANG) {
                waitWhile(m, 120_000); /* then closed without an answer */
            } else if (m == Mode.FAIL_500 || m == Mode.TOO_MANY) {
                if (m == Mode.TOO_MANY)
                    ex.getResponseHeaders().add("Retry-After", Integer.toString(retryAfterSeconds));
                answer(ex, m == Mode.TOO_MANY ? 429 : 500, "injected fault");
            } else if (m == Mode.REDIRECT_LOOP || m == Mode.REDIRECT_FILE || m == Mode.REDIRECT) {
                String query = ex.getRequestURI().getRawQuery();
                String same = ex.getRequestURI().getRawPath() + (query == null ? "" : "?" + query);
                String to = m == Mode.REDIRECT_LOOP ? url() + same
                        : m == Mode.REDIRECT_FILE ? "file:///etc/passwd" : redirectTo + same;
                ex.getResponseHeaders().add("Location", to);
                answer(ex, 307, "");
            } else {
                String problem = check(ex, body, m);
                if (problem != null || m == Mode.OK) {
                    answer(ex, problem == null ? 200 : 400, problem == null ? "" : problem);
                } else if (m == Mode.TRICKLE_200) {
                    ex.sendResponseHeaders(200, 64);
                    /* The status line goes out now, before any byte of the body: the mode may
                     * change before the first one, and a connection closed with the line
                     * still buffered reads "Empty reply" to the client, which rightly sends
                     * the window again although it was recorded here as answered. */
                    ex.getResponseBody().flush();
                    for (int i = 0; i < 64 && mode == Mode.TRICKLE_200; i++) {
                        ex.getResponseBody().write('.');
                        ex.getResponseBody().flush(); /* fails once the client has gone */
                        Thread.sleep(1000);
                    }
                } else { /* NEVER_ANSWER: it has the profile, and never says so */
                    waitWhile(m, 120_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException gone) {
            // the client went away (a trickle cut short, a request it gave up on)
        } finally {
            ex.close();
        }
    }

    private void waitWhile(Mode m, long limitMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + limitMillis;
        while (mode == m && System.currentTimeMillis() < end) Thread.sleep(20);
    }

    /** A from/until value as Pyroscope's attime reads a number, in nanoseconds. */
    public static long attimeNanos(String value) {
        long v = Long.parseLong(value);
        switch (value.length()) {
            case 19: return v;
            case 16: return v * 1_000L;
            case 13: return v * 1_000_000L;
            default: return v * 1_000_000_000L;
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
    private String check(HttpExchange ex, byte[] body, Mode mode) throws IOException {
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
            from = attimeNanos(q.get("from"));
            until = attimeNanos(q.get("until"));
        } catch (RuntimeException e) {
            return violation("from/until " + q.get("from") + "/" + q.get("until"));
        }
        long now = System.currentTimeMillis() * 1_000_000L, second = 1_000_000_000L;
        if (from > until || from < now - 3600 * second || until > now + 600 * second)
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
            received.add(new Received(name, from, until, p, file, body, mode));
        }
        return null;
    }

    private static String profileRule(Pprof p, long from, long until) {
        long start = p.timeNanos, end = p.timeNanos + p.durationNanos;
        if (start != from || end != until) return "time_nanos/duration_nanos " + start + ".." + end + " vs from/until " + from + ".." + until + " (ns)";
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
