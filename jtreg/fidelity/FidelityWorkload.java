import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Supplier;

/**
 * What FidelityTest profiles: a class and a method named with a supplementary character
 * (U+20000, CJK Extension B), lambdas, a method handle, a 300-frame recursion and a plain
 * allocation site, on two named threads. Each path allocates enough (about 16 MB at a
 * 16 KiB interval: ~1,000 samples) to be sampled in every run.
 */
public class FidelityWorkload {
    static final int ROUNDS = 16_000;
    static final int DEPTH = 300;
    static volatile Object sink;

    public static void main(String[] args) throws Throwable {
        Thread[] threads = {
            new Thread(() -> run(false), "fidelity-worker-1"),
            new Thread(() -> run(true), "fidelity-worker-2"),
        };
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
    }

    static void run(boolean handles) {
        try {
            MethodHandle mh = MethodHandles.lookup().findStatic(FidelityWorkload.class, "viaHandle",
                    MethodType.methodType(Object.class, int.class));
            Supplier<Object> lambda = () -> new byte[1000];
            for (int i = 0; i < ROUNDS; i++) {
                sink = knownSite();
                sink = 𠀀Names.alloc𠀀();
                sink = lambda.get();
                sink = deep(DEPTH);
                if (handles) sink = (Object) mh.invokeExact(i);
            }
        } catch (Throwable t) {
            throw new RuntimeException(t);
        }
    }

    static Object knownSite() {
        return new byte[1000];
    }

    static Object viaHandle(int i) {
        return new long[125 + (i & 1)];
    }

    /** Recurses to n frames, then allocates: the stack is n + a few frames deep. */
    static Object deep(int n) {
        return n == 0 ? new byte[1000] : deep(n - 1);
    }
}

class 𠀀Names {
    static Object alloc𠀀() {
        return new byte[1000];
    }
}
