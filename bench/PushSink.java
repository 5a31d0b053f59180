/*
 * PushSink: the receiver bench/push.sh pushes to: answers 204 to every POST on 127.0.0.1 and
 * prints its port on the first line. With the argument "free" it prints a port nobody
 * listens on (bound, then closed) and exits.
 */
import com.sun.net.httpserver.HttpServer;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

public class PushSink {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("free")) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                System.out.println(s.getLocalPort());
            }
            return;
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", ex -> {
            try (ex; InputStream in = ex.getRequestBody()) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
                ex.sendResponseHeaders(204, -1);
            }
        });
        server.start();
        System.out.println(server.getAddress().getPort());
        System.out.flush();
    }
}
