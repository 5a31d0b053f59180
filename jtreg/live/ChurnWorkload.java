/*
 * ChurnWorkload: stress for the live tracking. Many threads allocate objects with mixed
 * lifetimes while classes are defined and unloaded all the time, threads start and end,
 * and GCs come often; one site retains a known amount throughout.
 *
 *   java ChurnWorkload <seconds> <threads> <known MiB>
 *
 * - retainKnown: before the churn starts, <known MiB> of byte[KNOWN_LENGTH], kept to the
 *   end (the site whose in-use estimate the test checks), paced at KNOWN_PER_MILLI
 *   arrays a millisecond; then a GC and a pause, so the agent's sweeper thins all of that
 *   site's tracked samples to one level.
 * - <threads> worker slots run for <seconds>; each runs its work in a series of short-
 *   lived threads (SLICE_MILLIS each), so threads keep starting and ending. A worker:
 *     shortLived:  garbage, dropped at once;
 *     mediumLived: replaces a random slot of a small per-slot ring (lives a few ms);
 *     longLived:   replaces a random slot of a large per-slot ring (lives seconds);
 *     churnClass:  defines ChurnPayload in a new class loader, calls it, and keeps the
 *                  chain it returns in the medium ring: the class is unloadable once
 *                  that slot is overwritten.
 * - a collector thread calls System.gc() every GC_MILLIS, so dropped classes get
 *   unloaded whatever the collector's heuristics.
 * At the end the rings are dropped, a summary line is printed,
 *   ChurnWorkload: done: loaders=<n> threads=<n> known=<count>x<length>
 * System.gc() runs twice, and the program waits SETTLE_MILLIS before it exits.
 */
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

public class ChurnWorkload {
    public static final int KNOWN_LENGTH = 4000;
    static final int KNOWN_PER_MILLI = 16;
    static final String DONE_LINE = "ChurnWorkload: done: ";
    static final int MEDIUM_RING = 64;
    static final int LONG_RING = 256;
    static final long SLICE_MILLIS = 700;
    static final long GC_MILLIS = 1500;
    static final long SETTLE_MILLIS = 300;

    static byte[][] known;
    static volatile Object sink;
    static final AtomicLong loaders = new AtomicLong();
    static final AtomicLong threadsStarted = new AtomicLong();

    public static void main(String[] args) throws Exception {
        long millis = (long) (Double.parseDouble(args[0]) * 1000);
        int slots = Integer.parseInt(args[1]);
        int knownCount = (int) ((Long.parseLong(args[2]) << 20) / KNOWN_LENGTH);
        byte[] payload = payloadClassBytes();

        known = new byte[knownCount][];
        retainKnown();
        // A GC, and time for the agent's sweep after it: every tracked sample of the known
        // set is then thinned to one level, before the churn starts.
        System.gc();
        Thread.sleep(SETTLE_MILLIS);

        long deadline = System.nanoTime() + millis * 1_000_000;
        Slot[] slotList = new Slot[slots];
        Thread[] workers = new Thread[slots];
        for (int i = 0; i < slots; i++) {
            slotList[i] = new Slot(i, payload, deadline);
            workers[i] = new Thread(slotList[i]::run, "churn-slot-" + i);
            workers[i].start();
        }
        Thread collector = new Thread(() -> collectUntil(deadline), "churn-gc");
        collector.start();
        for (Thread t : workers) t.join();
        collector.join();

        // Everything but the known set becomes garbage (and every payload class unloadable).
        for (Slot slot : slotList) slot.clear();
        sink = null;
        System.out.println(DONE_LINE + "loaders=" + loaders.get() + " threads="
                + threadsStarted.get() + " known=" + known.length + "x" + KNOWN_LENGTH);
        // Nothing allocated after the last GC, and time for the agent to sweep out what the
        // GCs freed: at exit the table holds (almost) only what is live.
        System.gc();
        System.gc();
        Thread.sleep(SETTLE_MILLIS);
    }

    /**
     * Paced: the agent thins its table from its own thread, which looks about every 20 ms;
     * a burst faster than that fills the table and the samples that find no free slot are
     * lost, which would bias this site's estimate low.
     */
    static void retainKnown() throws InterruptedException {
        for (int i = 0; i < known.length; i++) {
            known[i] = new byte[KNOWN_LENGTH];
            if (i % KNOWN_PER_MILLI == KNOWN_PER_MILLI - 1) Thread.sleep(1);
        }
    }

    static void collectUntil(long deadline) {
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(GC_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            System.gc();
        }
    }

    static byte[] payloadClassBytes() throws IOException {
        try (InputStream in = ChurnWorkload.class.getResourceAsStream("/ChurnPayload.class")) {
            if (in == null) throw new IOException("ChurnPayload.class is not on the class path");
            return in.readAllBytes();
        }
    }

    /** Defines ChurnPayload itself (never asks its parent for it): a new class each time. */
    static final class PayloadLoader extends ClassLoader {
        private final byte[] bytes;

        PayloadLoader(byte[] bytes) {
            super(ChurnWorkload.class.getClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals("ChurnPayload")) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, bytes, 0, bytes.length);
            }
        }
    }

    /** One worker slot: its rings outlive the short threads that do its work. */
    static final class Slot {
        final Object[] medium = new Object[MEDIUM_RING];
        final Object[] longLived = new Object[LONG_RING];
        final byte[] payload;
        final long deadline;
        final SplittableRandom random;

        Slot(int index, byte[] payload, long deadline) {
            this.payload = payload;
            this.deadline = deadline;
            this.random = new SplittableRandom(0x5eed + index);
        }

        void clear() {
            Arrays.fill(medium, null);
            Arrays.fill(longLived, null);
        }

        void run() {
            while (System.nanoTime() < deadline) {
                SplittableRandom sliceRandom = random.split();
                Thread t = new Thread(() -> slice(sliceRandom), Thread.currentThread().getName() + "-w");
                threadsStarted.incrementAndGet();
                t.start();
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void slice(SplittableRandom r) {
            long end = Math.min(deadline, System.nanoTime() + SLICE_MILLIS * 1_000_000);
            try {
                for (long i = 0; ; i++) {
                    if ((i & 63) == 0 && System.nanoTime() >= end) return;
                    int what = r.nextInt(64);
                    if (what < 40) shortLived(r);
                    else if (what < 56) mediumLived(r);
                    else if (what < 63) longLived(r);
                    else churnClass(r);
                }
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }

        void shortLived(SplittableRandom r) {
            switch (r.nextInt(3)) {
                case 0 -> sink = new byte[16 + r.nextInt(4096)];
                case 1 -> sink = new Object[1 + r.nextInt(64)];
                default -> sink = new StringBuilder(r.nextInt(256)).append(r.nextLong()).toString();
            }
        }

        void mediumLived(SplittableRandom r) {
            medium[r.nextInt(MEDIUM_RING)] = r.nextBoolean() ? new long[1 + r.nextInt(256)]
                    : new int[1 + r.nextInt(512)];
        }

        void longLived(SplittableRandom r) {
            longLived[r.nextInt(LONG_RING)] = new char[1 + r.nextInt(1024)];
        }

        @SuppressWarnings("unchecked")
        void churnClass(SplittableRandom r) throws ReflectiveOperationException {
            Class<?> c = new PayloadLoader(payload).loadClass("ChurnPayload");
            loaders.incrementAndGet();
            IntFunction<Object> f = (IntFunction<Object>) c.getDeclaredConstructor().newInstance();
            medium[r.nextInt(MEDIUM_RING)] = f.apply(1 + r.nextInt(32));
        }
    }
}
