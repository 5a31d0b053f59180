/*
 * PathsBudget: a heap the retention walk cannot finish in a short budget, with a leak a
 * static field holds and a stack local also reaches. Store.STORE holds CHUNKS arrays of
 * CHUNK references: one in SPREAD to a cell of its own with a 256-byte record (the largest
 * in-use site, its tracked objects deep in the store), the others to a pool of POOL cells
 * (many references, few objects: the walk reports every array element, while on JDK 17 the
 * pause after a walk grows with the objects in the heap). LEAKED (a static field's list, in
 * another class) holds LEAKS Leak objects with an 8 KB payload. main keeps the list in a
 * local variable, then asks its own agent through the attach API for
 *   dump,paths=3,budget=<budget>,file=<short>   while a meter thread records the longest
 *                                               gap between its 1 ms naps (the stall)
 *   dump,paths=3,budget=3s,file=<long>          enough to reach the leak on a loaded machine
 *
 *   PathsBudget <library> <short> <budget> <long>
 *
 * Prints "OK paths" after each dump, then "longest stall: N ms".
 */
import com.sun.tools.attach.VirtualMachine;

import java.util.ArrayList;
import java.util.List;

public class PathsBudget {
    static final int CHUNKS = 150;
    static final int CHUNK = 100_000;
    static final int SPREAD = 20;
    static final int POOL = 1000;
    static final int RECORD = 256;
    static final int LEAKS = 6_000;
    static final int PAYLOAD = 8192;
    static final List<Leak> LEAKED = new ArrayList<>();

    static final class Leak {
        final byte[] payload;

        Leak(byte[] payload) {
            this.payload = payload;
        }
    }

    static final class Cell {
        final Object value;

        Cell(Object value) {
            this.value = value;
        }
    }

    static final class Store {
        static Object[][] STORE;

        static void fill() {
            Cell[] pool = new Cell[POOL];
            for (int i = 0; i < POOL; i++) pool[i] = new Cell(Long.valueOf(1_000_000L + i));
            STORE = new Object[CHUNKS][];
            for (int c = 0; c < CHUNKS; c++) {
                Object[] chunk = new Object[CHUNK];
                for (int i = 0; i < CHUNK; i++) {
                    chunk[i] = i % SPREAD == 0 ? new Cell(new byte[RECORD]) : pool[(c + i) % POOL];
                }
                STORE[c] = chunk;
            }
        }
    }

    static final class StallMeter extends Thread {
        volatile boolean running = true;
        volatile long longestNanos;

        StallMeter() {
            setDaemon(true);
        }

        @Override
        public void run() {
            long last = System.nanoTime();
            while (running) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                longestNanos = Math.max(longestNanos, now - last);
                last = now;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Store.fill();
        for (int i = 0; i < LEAKS; i++) LEAKED.add(new Leak(new byte[PAYLOAD]));
        System.gc(); // everything is in use from now on (allocated before the last GC)
        Thread.sleep(300);
        List<Leak> local = LEAKED; // a stack local that reaches the leak too
        StallMeter meter = new StallMeter();
        meter.start();
        Thread.sleep(100);
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgentPath(args[0], "dump,paths=3,budget=" + args[2] + ",file=" + args[1]);
            System.out.println("OK paths");
            meter.running = false;
            meter.join();
            vm.loadAgentPath(args[0], "dump,paths=3,budget=3s,file=" + args[3]);
            System.out.println("OK paths");
        } catch (Exception e) {
            System.out.println("REFUSED paths: " + e);
        }
        vm.detach();
        System.out.println("longest stall: " + meter.longestNanos / 1_000_000 + " ms (" + local.size()
                + " leaked, " + Store.STORE.length + " chunks)");
    }
}
