/*
 * FakeAttachListener: what a hostile target user puts where a JVM's attach socket was:
 * a UNIX socket at the path given that accepts connections, appends every byte it
 * receives to the log file given, and answers like a JVM that loaded the library, with an
 * OSC sequence in the text. It prints "listening" once bound, and "connection N bytes"
 * after each connection closes. It runs until killed.
 */
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

public class FakeAttachListener {
    public static void main(String[] args) throws Exception {
        Path socket = Paths.get(args[0]), log = Paths.get(args[1]);
        Files.write(log, new byte[0]);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            System.out.println("listening");
            System.out.flush();
            while (true) {
                try (SocketChannel c = server.accept()) {
                    long total = 0;
                    ByteBuffer buf = ByteBuffer.allocate(4096);
                    int n;
                    while ((n = c.read(buf)) > 0) {
                        total += n;
                        buf.flip();
                        byte[] got = new byte[buf.remaining()];
                        buf.get(got);
                        Files.write(log, got, StandardOpenOption.APPEND);
                        buf.clear();
                        if (new String(got, StandardCharsets.ISO_8859_1).endsWith("\0")) break;
                    }
                    System.out.println("connection " + total + " bytes");
                    System.out.flush();
                    c.write(ByteBuffer.wrap("0\n\u001b]0;pwned\u0007return code: 0\n".getBytes(StandardCharsets.ISO_8859_1)));
                } catch (java.io.IOException e) {
                    System.out.println("connection failed: " + e);
                    System.out.flush();
                }
            }
        }
    }
}
