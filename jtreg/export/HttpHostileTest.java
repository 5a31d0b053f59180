/*
 * @test
 * @summary The endpoint stays fair and closed to the web: while 10 hostile sockets do their
 *          worst for 10 s (6 sending their heads a byte at a time and reconnecting as soon
 *          as they are cut, 4 asking ?seconds=300 and asking again as soon as refused), a
 *          scraper asking four times a second gets every answer (200) quickly; a request
 *          whose Host names another site (DNS rebinding) is refused 403 with the header that
 *          says why, and nothing is built for it; a header value with a NUL is refused 400;
 *          X-Go-Pprof marks the errors of /debug/pprof/ paths only, as Go's net/http/pprof
 * @library /lib
 * @build HttpWorkload Endpoint
 * @run driver HttpHostileTest
 */
import heapsampler.AgentRunner;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

public class HttpHostileTest {
    static final int SLOW = 6, WAITERS = 4;
    static final long HOSTILE_MILLIS = 10_000, SCRAPE_EVERY_MILLIS = 250;

    public static void main(String[] args) throws Exception {
        Endpoint e = Endpoint.start("hostile", "http=0,log=info", "-XX:+EnableDynamicAgentLoading");
        try {
            Thread.sleep(1000);
            scraperServedUnderAttack(e.port);
            hostAndHeaders(e.port);
            Endpoint.jcmd(e.jvm.process.pid(), "status"); /* printed on the JVM's stdout */
        } catch (Throwable t) {
            e.jvm.close();
            throw t;
        }
        AgentRunner.Result r = e.stop();
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");
        if (!r.stdout.matches("(?s).*heapsampler: http: serving on 127\\.0\\.0\\.1:[0-9]+, [0-9]+ answered, "
                + "[0-9]+ refused, [0-9]+ timed out, [1-9][0-9]* evicted.*"))
            r.fail("status counts the slow heads evicted");
    }

    /* --- the attack ------------------------------------------------------------------------- */

    static Socket connect(int port) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(1000);
        return s;
    }

    /** A head sent a byte at a time; reconnects as soon as the server cuts it. */
    static void slowloris(int port, AtomicBoolean stop, AtomicInteger cuts) {
        byte[] head = "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaa\r\n"
                .getBytes(StandardCharsets.US_ASCII);
        while (!stop.get()) {
            try (Socket s = connect(port)) {
                s.setSoTimeout(200);
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                for (int i = 0; !stop.get(); i = (i + 1) % head.length) {
                    out.write(head[i]);
                    out.flush();
                    try {
                        if (in.read() == -1) break; /* cut */
                    } catch (SocketTimeoutException notYet) {
                        // still reading our head: the next byte
                    }
                }
            } catch (IOException cut) {
                // reset by the server: again
            }
            cuts.incrementAndGet();
        }
    }

    /** ?seconds=300, again as soon as it is refused (or answered). */
    static void waiter(int port, AtomicBoolean stop, AtomicInteger refused) {
        while (!stop.get()) {
            try (Socket s = connect(port)) {
                s.getOutputStream().write("GET /debug/pprof/allocs?seconds=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                while (!stop.get()) {
                    try {
                        String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                        if (answer.startsWith("HTTP/1.1 503 ")) refused.incrementAndGet();
                        break;
                    } catch (SocketTimeoutException waiting) {
                        // held: keep holding
                    }
                }
            } catch (IOException gone) {
                // again
            }
        }
    }

    /** One scrape: the status line, or the failure, and how long it took. */
    static String scrape(int port, long[] tookMillis) {
        long t0 = System.nanoTime();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(15_000);
            s.getOutputStream().write("GET /debug/pprof/allocs HTTP/1.1\r\nHost: 127.0.0.1:6060\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] answer = s.getInputStream().readAllBytes();
            String text = new String(answer, 0, Math.min(answer.length, 64), StandardCharsets.ISO_8859_1);
            return text.contains("\r\n") ? text.substring(0, text.indexOf("\r\n")) : "short answer: " + text;
        } catch (IOException ex) {
            return "failed: " + ex;
        } finally {
            tookMillis[0] = (System.nanoTime() - t0) / 1_000_000;
        }
    }

    static void scraperServedUnderAttack(int port) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger cuts = new AtomicInteger(), refusedWaits = new AtomicInteger();
        List<Thread> hostile = new ArrayList<>();
        for (int i = 0; i < SLOW; i++) hostile.add(new Thread(() -> slowloris(port, stop, cuts)));
        for (int i = 0; i < WAITERS; i++) hostile.add(new Thread(() -> waiter(port, stop, refusedWaits)));
        hostile.forEach(t -> {
            t.setDaemon(true);
            t.start();
        });
        Thread.sleep(1000); /* the attack is under way */
        int asked = 0, answered = 0;
        long slowest = 0, end = System.currentTimeMillis() + HOSTILE_MILLIS;
        List<String> failures = new ArrayList<>();
        while (System.currentTimeMillis() < end) {
            long[] took = new long[1];
            String line = scrape(port, took);
            asked++;
            if (line.startsWith("HTTP/1.1 200 ")) answered++;
            else failures.add(line);
            slowest = Math.max(slowest, took[0]);
            Thread.sleep(Math.max(0, SCRAPE_EVERY_MILLIS - took[0]));
        }
        stop.set(true);
        for (Thread t : hostile) t.join(5000);
        System.out.printf("under %d slow heads and %d ?seconds=300 askers: %d of %d scrapes answered 200, "
                + "slowest %d ms; slow heads cut %d times, waits refused %d times; failures %s%n",
                SLOW, WAITERS, answered, asked, slowest, cuts.get(), refusedWaits.get(), failures);
        if (asked < 20) throw new AssertionError("only " + asked + " scrapes in " + HOSTILE_MILLIS + " ms");
        if (answered * 100 < asked * 99) throw new AssertionError(answered + " of " + asked + " scrapes answered: " + failures);
        if (cuts.get() < SLOW) throw new AssertionError("the slow heads were never cut: " + cuts.get());
        if (refusedWaits.get() == 0) throw new AssertionError("no ?seconds=300 request was refused");
    }

    /* --- Host, control characters, X-Go-Pprof ----------------------------------------------- */

    static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    static void expect(String answer, String what, boolean present) {
        if (answer.contains(what) != present)
            throw new AssertionError((present ? "no " : "unexpected ") + what + " in:\n" + answer);
    }

    static void hostAndHeaders(int port) throws Exception {
        String rebound = exchange(port, "GET /debug/pprof/heap?gc=1 HTTP/1.1\r\nHost: attacker.example:6060\r\n\r\n");
        expect(rebound, "HTTP/1.1 403 Forbidden\r\n", true);
        expect(rebound, "X-Heapsampler-Refused: Host is not a loopback name or address\r\n", true);
        expect(rebound, "DNS rebinding", true);
        expect(rebound, "X-Heapsampler-Gc", false); /* nothing built, no collection forced */
        for (String host : List.of("localhost:6060", "127.0.0.1", "[::1]:6060"))
            expect(exchange(port, "GET /debug/pprof/heap HTTP/1.1\r\nHost: " + host + "\r\n\r\n"),
                    "HTTP/1.1 200 OK\r\n", true);
        expect(exchange(port, "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\0b\r\n\r\n"),
                "HTTP/1.1 400 ", true);
        String unknown = exchange(port, "GET /debug/pprof/goroutine HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        expect(unknown, "HTTP/1.1 404 ", true);
        expect(unknown, "X-Go-Pprof: 1\r\n", true);
        String elsewhere = exchange(port, "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        expect(elsewhere, "404 page not found", true);
        expect(elsewhere, "X-Go-Pprof", false);
        String index = exchange(port, "GET /debug/pprof/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        expect(index, "<a href='heap?debug=1'>heap</a>", true);
        expect(index, "X-Go-Pprof", false);
    }
}
