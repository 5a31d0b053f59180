import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A small program with known allocation sites: a cache it keeps, and garbage it drops. */
public class HeapDemo {
    static final Map<Integer, String> cache = new HashMap<>();
    static final List<long[]> retained = new ArrayList<>();
    static volatile Object sink;

    static void fillCache() {
        for (int i = 0; i < 200_000; i++) cache.put(i, "value-" + i);
    }

    static void retainArrays() {
        for (int i = 0; i < 2_000; i++) retained.add(new long[1024]);
    }

    static void churn() {
        for (int i = 0; i < 5_000_000; i++) sink = new int[16];
    }

    public static void main(String[] args) {
        fillCache();
        retainArrays();
        churn();
        System.gc();
        System.out.printf("cache %d entries, %d arrays retained%n", cache.size(), retained.size());
    }
}
