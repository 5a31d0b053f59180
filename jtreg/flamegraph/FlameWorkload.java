/*
 * FlameWorkload: known allocation sites for the flame graph tests (format=html and
 * format=collapsed with each collapsed= metric).
 *
 *   keepNodes     300,000 FlameWorkload$Node, kept (live)
 *   keepCaf\u00e9      8,000 x byte[1000], kept (live; a method name that is not ASCII)
 *   dropGarbage   80,000 x byte[1000], all garbage (no live bytes after the last GC)
 *
 * Ends with a GC, so the in-use profile is "as of" a GC that saw everything. With the
 * argument "aged", waits 2.1 s after keepNodes, so its objects are at least 2 s (the
 * age clock's whole seconds) older than keepCafé's.
 */
import java.util.ArrayList;
import java.util.List;

public class FlameWorkload {
    static final List<Object> kept = new ArrayList<>();
    static volatile Object sink;

    static final class Node {
        long a, b;

        Node(long seed) {
            a = seed;
            b = seed + 1;
        }
    }

    static void keepNodes() {
        for (int i = 0; i < 300_000; i++) kept.add(new Node(i));
    }

    static void keepCaf\u00e9() {
        for (int i = 0; i < 8_000; i++) kept.add(new byte[1000]);
    }

    static void dropGarbage() {
        for (int i = 0; i < 80_000; i++) sink = new byte[1000];
        sink = null;
    }

    public static void main(String[] args) throws InterruptedException {
        keepNodes();
        if (args.length > 0 && args[0].equals("aged")) Thread.sleep(2100);
        keepCaf\u00e9();
        dropGarbage();
        System.gc();
        System.out.println("FlameWorkload: done, kept " + kept.size());
    }
}
