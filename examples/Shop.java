import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A shop whose session cache never evicts: it grows (about 1.5 MiB/s), while each request
 * makes garbage. It runs until stopped: the example of docs/leak-hunting.md. */
public class Shop {
    static final Map<Long, byte[]> sessions = new ConcurrentHashMap<>();
    static volatile Object sink;

    static void login(long user) { sessions.put(user, new byte[2048]); }

    static void handle(long request) {
        List<int[]> scratch = new ArrayList<>();
        for (int i = 0; i < 8; i++) scratch.add(new int[256]);
        sink = scratch;
    }

    public static void main(String[] args) throws Exception {
        for (long n = 0; ; n++) {
            if (n % 40 == 0) login(n);
            handle(n);
            if (n % 200 == 0) Thread.sleep(5);
        }
    }
}
