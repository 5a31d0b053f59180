/*
 * HttpWorkload: allocates at one site (HttpWorkload.allocate), keeping some of it alive,
 * until a file named "stop" appears in its working directory (at most 120 s), then prints
 * "WORKLOAD DONE" and exits with EXIT_CODE: the JVM a test scrapes over HTTP meanwhile.
 */
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public class HttpWorkload {
    static final int EXIT_CODE = 0;
    static final List<byte[]> retained = new ArrayList<>();
    static long sink;

    public static void main(String[] args) throws Exception {
        Path stop = Path.of("stop");
        long end = System.nanoTime() + 120_000_000_000L;
        int round = 0;
        while (!Files.exists(stop) && System.nanoTime() < end) {
            for (int i = 0; i < 2000; i++) allocate(round + i);
            if (retained.size() > 4000) retained.subList(0, 2000).clear();
            round++;
            Thread.sleep(5);
        }
        System.out.println("WORKLOAD DONE");
        System.exit(EXIT_CODE);
    }

    static void allocate(int i) {
        byte[] b = new byte[512 + (i % 7) * 128];
        sink += b.length;
        if (i % 10 == 0) retained.add(b);
    }
}
