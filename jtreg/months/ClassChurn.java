/*
 * ClassChurn: defines and unloads hidden classes and class loaders, as Groovy, JSP
 * recompilation, proxies and lambdas in long-running services do, while a constant set of
 * their objects stays retained.
 *
 * Usage: ClassChurn <rounds> [checkpoints]
 *
 * Each round defines ChurnTmpl as a hidden class (Lookup.defineHiddenClass, not strongly
 * linked: it unloads on its own) and ChurnB through a fresh class loader, and calls each
 * one's static work(): it allocates garbage (byte[4000], int[1000]) and returns a new
 * instance of its own class, which holds a long[64]. Those instances go into a ring of RING
 * slots, so the retained set is constant (RING objects, and the at most RING classes they
 * keep loaded) while every class before them is unloaded by the collector. work() is
 * static and called through reflection: its method type, (int)Object, is the same for
 * every class, so the JDK's own tables (the MethodType intern set) do not grow with the
 * classes as they would for a per-class constructor type. Prints "rss-kb ROUND KB" at
 * `checkpoints` evenly spaced rounds (default 8), then the rounds and "ClassChurn: done".
 */
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Paths;

public class ClassChurn {
    static final int RING = 50;
    static final Object[] ring = new Object[RING];
    /** Where work() drops its garbage: one field for all classes, so no class retains any. */
    public static volatile Object sink;

    static final class Loader extends ClassLoader {
        Loader() {
            super(ClassChurn.class.getClassLoader()); // ClassChurn (the sink) from the parent
        }

        Class<?> define(byte[] bytes) {
            return defineClass("ChurnB", bytes, 0, bytes.length);
        }
    }

    static byte[] classBytes(String name) throws IOException {
        try (InputStream in = ClassChurn.class.getResourceAsStream(name + ".class")) {
            if (in == null) throw new IOException(name + ".class not found");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
            return out.toByteArray();
        }
    }

    static long rssKb() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    /** Calls c.work(round) (static, package access: ChurnB's package is its loader's). */
    static Object work(Class<?> c, int round) throws ReflectiveOperationException {
        Method work = c.getDeclaredMethod("work", int.class);
        work.setAccessible(true);
        return work.invoke(null, round);
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int checkpoints = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        byte[] tmpl = classBytes("ChurnTmpl");
        byte[] b = classBytes("ChurnB");
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (int i = 0; i < rounds; i++) {
            ring[(2 * i) % RING] = work(lookup.defineHiddenClass(tmpl, true).lookupClass(), i);
            ring[(2 * i + 1) % RING] = work(new Loader().define(b), i);
            if (checkpoints > 0 && (i + 1) % Math.max(1, rounds / checkpoints) == 0)
                System.out.println("rss-kb " + (i + 1) + " " + rssKb());
        }
        System.out.println("rounds " + rounds);
        System.out.println("classes-defined " + 2L * rounds);
        System.out.println("ClassChurn: done");
    }
}

/** Defined anew as a hidden class every round: its name is ChurnTmpl/0x<address>. */
final class ChurnTmpl {
    final long[] payload = new long[64];

    static Object work(int round) {
        ClassChurn.sink = new byte[4000];
        ClassChurn.sink = new int[1000];
        return new ChurnTmpl();
    }
}

/** Defined anew by a fresh class loader every round. */
final class ChurnB {
    final long[] payload = new long[64];

    static Object work(int round) {
        ClassChurn.sink = new byte[4000];
        ClassChurn.sink = new int[1000];
        return new ChurnB();
    }
}
