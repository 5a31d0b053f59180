/*
 * @test
 * @summary Slow and hostile peers hold nothing: a client sending its request one byte a
 *          second is cut at the read timeout (5 s); while it, a ?seconds=300 delta and a
 *          client that never reads its response hold connections, a jcmd dump completes
 *          and the JVM, asked to exit, exits promptly with its exit profile written
 * @library /lib
 * @build HttpWorkload Endpoint
 * @run driver HttpBoundsTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

public class HttpBoundsTest {
    public static void main(String[] args) throws Exception {
        Endpoint e = Endpoint.start("bounds", "http=0,log=info", "-XX:+EnableDynamicAgentLoading");
        long exitMillis;
        try {
            Thread.sleep(1000);
            CompletableFuture<Long> trickle = CompletableFuture.supplyAsync(() -> trickle(e.port));
            Socket delta = send(e.port, "GET /debug/pprof/heap?seconds=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            Socket nonReader = send(e.port, "GET /flamegraph HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            nonReader.setReceiveBufferSize(1024);
            Thread.sleep(500);

            long t0 = System.nanoTime();
            String out = Endpoint.jcmd(e.jvm.process.pid(), "dump,file=ondemand.pb.gz");
            long dumpMillis = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("jcmd dump took " + dumpMillis + " ms: " + out);
            if (!out.contains("return code: 0")) throw new AssertionError("jcmd dump failed: " + out);
            Pprof.read(e.jvm.dir.resolve("ondemand.pb.gz")).validate();
            if (dumpMillis > 20_000) throw new AssertionError("the dump waited on the peers");

            long cutAfter = trickle.get(60, TimeUnit.SECONDS);
            System.out.println("the one-byte-a-second client was cut after " + cutAfter + " ms");
            if (cutAfter < 4000 || cutAfter > 15000) {
                throw new AssertionError("the read timeout is 5 s; the trickle was cut after "
                        + cutAfter + " ms");
            }
            // a new trickle, still holding a connection when the JVM is asked to exit
            CompletableFuture.runAsync(() -> trickle(e.port));
            Thread.sleep(1500);
            t0 = System.nanoTime();
            Files.writeString(e.jvm.dir.resolve("stop"), "");
            if (!e.jvm.process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the JVM did not exit within 60 s with peers connected");
            }
            exitMillis = (System.nanoTime() - t0) / 1_000_000;
            delta.close();
            nonReader.close();
        } catch (Throwable t) {
            e.jvm.close();
            throw t;
        }
        AgentRunner.Result r = e.jvm.finish();
        System.out.println("exit took " + exitMillis + " ms after the stop file");
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE);
        if (exitMillis > 10_000) r.fail("the exit took " + exitMillis + " ms with peers connected");
        if (r.stderr.contains("did not stop in time")) r.fail("the serving thread did not stop");
        Pprof.read(r.file("heapsampler-" + e.jvm.process.pid() + ".pb.gz")).validate();
    }

    static Socket send(int port, String request) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    /* Sends a request head a byte a second until the server closes; returns how long that
     * took (ms), at most 60 s. */
    static long trickle(int port) {
        long t0 = System.nanoTime();
        byte[] head = ("GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(64)
                + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(1000);
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < 60 && i < head.length; i++) {
                out.write(head[i]);
                out.flush();
                try {
                    if (s.getInputStream().read() == -1) break; /* closed by the server */
                } catch (java.net.SocketTimeoutException ignored) {
                    // nothing yet: the next byte
                }
            }
        } catch (IOException closed) {
            // reset by the server
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
