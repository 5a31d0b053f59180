/*
 * VirtualThreadNames: thousands of virtual threads, each named "vt-N", allocating arrays
 * whose size tells which thread allocated them, while the few carriers switch between them
 * at every allocation; every fourth one pinned (it sleeps inside a synchronized block, which
 * pins its carrier on JDK 21-23). Then UNNAMED unnamed virtual threads allocate arrays of
 * another size. JDK 21+.
 *
 * Usage: VirtualThreadNames <threads> <arrays per thread>
 *
 * Thread i allocates byte[sizeOf(i)]: object sizes 16 + BASE + 8 i, one per thread, so a
 * sample's object size (the profile's "bytes" label) names the thread that allocated it.
 * Prints "VirtualThreadNames: done, N threads".
 */
import java.util.ArrayList;
import java.util.List;

public class VirtualThreadNames {
    static final int BASE = 4096;
    static final int UNNAMED = 50;
    static final int UNNAMED_LENGTH = 3000; /* 3,016-byte objects: below every named size */
    static volatile Object sink;

    static int lengthOf(int thread) {
        return BASE + 8 * thread;
    }

    static void allocate(int length, int arrays, boolean pinned) {
        Object lock = new Object();
        for (int k = 0; k < arrays; k++) {
            if (pinned) {
                synchronized (lock) {
                    sink = new byte[length];
                    sleepQuietly(); // parks while holding a monitor: pins the carrier on JDK 21
                }
            } else {
                sink = new byte[length];
                Thread.yield(); // lets the carrier run another virtual thread
            }
        }
    }

    static void sleepQuietly() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int arrays = Integer.parseInt(args[1]);
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            final int index = i;
            started.add(Thread.ofVirtual().name("vt-" + i)
                    .start(() -> allocate(lengthOf(index), arrays, index % 4 == 3)));
        }
        for (int i = 0; i < UNNAMED; i++)
            started.add(Thread.ofVirtual().start(() -> allocate(UNNAMED_LENGTH, arrays, false)));
        for (Thread t : started) t.join();
        System.out.println("VirtualThreadNames: done, " + threads + " threads");
    }
}
