/*
 * UnloadWorkload: 16 threads allocate a mix of sizes (keeping a rolling window of their
 * objects alive) while one more thread keeps creating class loaders that define
 * unloadable.Churn from the test's class directory, calls its allocating methods, and
 * drops them, calling System.gc() now and then so the classes are unloaded while the
 * agent samples everything (ConcurrencyUnloadTest). Fixed seeds.
 *
 * Argument: seconds to run. Output: "UnloadWorkload: done, N loaders, M allocations".
 */
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

public class UnloadWorkload {
    static final int ALLOCATORS = 16;
    static final int WINDOW = 512;
    static final int LOADERS_PER_GC = 20;
    static final AtomicLong allocations = new AtomicLong();

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        URL classRoot = classRoot();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < ALLOCATORS; i++) {
            final long seed = i;
            Thread t = new Thread(() -> allocateUntil(deadline, seed), "allocator-" + i);
            threads.add(t);
            t.start();
        }
        int loaders = churnLoadersUntil(deadline, classRoot);
        for (Thread t : threads) t.join();
        System.out.println("UnloadWorkload: done, " + loaders + " loaders, " + allocations.get()
                + " allocations");
    }

    /** The class-path root that holds unloadable/Churn.class. */
    static URL classRoot() throws Exception {
        URL churn = UnloadWorkload.class.getResource("/unloadable/Churn.class");
        if (churn == null || !churn.getProtocol().equals("file")) {
            throw new IllegalStateException("unloadable/Churn.class not found as a file: " + churn);
        }
        Path root = Paths.get(churn.toURI()).getParent().getParent();
        return root.toUri().toURL();
    }

    /** Loads, uses and drops unloadable.Churn through fresh loaders; returns how many. */
    static int churnLoadersUntil(long deadline, URL classRoot) throws Exception {
        int loaders = 0;
        while (System.nanoTime() < deadline) {
            try (URLClassLoader loader = new URLClassLoader(new URL[] {classRoot},
                    ClassLoader.getPlatformClassLoader())) {
                Class<?> churnClass = loader.loadClass("unloadable.Churn");
                if (churnClass.getClassLoader() != loader) {
                    throw new IllegalStateException("Churn was not defined by its own loader");
                }
                @SuppressWarnings("unchecked")
                IntFunction<Object> churn =
                        (IntFunction<Object>) churnClass.getDeclaredConstructor().newInstance();
                for (int i = 0; i < 40; i++) sink = churn.apply(256);
            }
            sink = null;
            if (++loaders % LOADERS_PER_GC == 0) System.gc();
        }
        System.gc();
        return loaders;
    }

    static void allocateUntil(long deadline, long seed) {
        Random random = new Random(seed);
        Object[] window = new Object[WINDOW];
        long count = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1000; i++) {
                window[random.nextInt(WINDOW)] = allocateMix(random);
                count++;
            }
        }
        allocations.addAndGet(count);
    }

    static Object allocateMix(Random random) {
        int kind = random.nextInt(100);
        if (kind < 60) return new byte[16 + random.nextInt(256)];
        if (kind < 85) return Long.toString(random.nextLong());
        if (kind < 98) {
            List<Integer> list = new ArrayList<>();
            for (int i = 0; i < 16; i++) list.add(random.nextInt());
            return list;
        }
        return new long[1024 + random.nextInt(8192)];
    }
}
