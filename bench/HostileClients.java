/*
 * HostileClients: the peers bench/hostile_scrape.sh sets on the agent's endpoint, all on
 * 127.0.0.1 (the scraper's own address, so no per-address limit tells them apart):
 *
 *   SLOW sockets each send a request head one byte a second (slowloris), and reconnect as
 *   soon as the server cuts them;
 *   WAITERS sockets each ask /debug/pprof/allocs?seconds=300 and hold it; asked again as
 *   soon as it is refused or closed.
 *
 * Usage: java HostileClients PORT SECONDS SLOW WAITERS. Runs SECONDS seconds (bounded), then
 * prints "hostile: C cuts, R refused waits, H waits held at the end" and exits.
 */
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

public final class HostileClients {
    static final AtomicBoolean STOP = new AtomicBoolean();
    static final AtomicInteger CUTS = new AtomicInteger(), REFUSED = new AtomicInteger(),
            HELD = new AtomicInteger();

    static void slowloris(int port) {
        byte[] head = "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII);
        while (!STOP.get()) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setSoTimeout(1000); /* a byte a second: the read waits the second */
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                for (int i = 0; !STOP.get() && i < head.length - 1; i++) { /* never the last byte */
                    out.write(head[i]);
                    out.flush();
                    try {
                        if (in.read() == -1) break; /* cut */
                    } catch (SocketTimeoutException aSecond) {
                        // the next byte
                    }
                }
            } catch (IOException cut) {
                // reset: again
            }
            CUTS.incrementAndGet();
        }
    }

    static void waiter(int port) {
        byte[] ask = "GET /debug/pprof/allocs?seconds=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII);
        while (!STOP.get()) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setSoTimeout(500);
                s.getOutputStream().write(ask);
                boolean counted = false;
                while (!STOP.get()) {
                    try {
                        int first = s.getInputStream().read();
                        if (first == -1 || first == 'H') REFUSED.incrementAndGet(); /* 503, or cut */
                        break;
                    } catch (SocketTimeoutException held) {
                        if (!counted) HELD.incrementAndGet();
                        counted = true;
                    }
                }
                if (counted) HELD.decrementAndGet();
            } catch (IOException gone) {
                // again
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        int slow = Integer.parseInt(args[2]), waiters = Integer.parseInt(args[3]);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < slow; i++) threads.add(new Thread(() -> slowloris(port)));
        for (int i = 0; i < waiters; i++) threads.add(new Thread(() -> waiter(port)));
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(seconds * 1000);
        int held = HELD.get();
        STOP.set(true);
        for (Thread t : threads) t.join(3000);
        System.out.println("hostile: " + CUTS.get() + " cuts, " + REFUSED.get() + " refused waits, "
                + held + " waits held at the end");
    }
}
