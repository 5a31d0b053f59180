/*
 * PathsWalk: what `dump,paths=N` (the retention walk) costs the application on a large
 * heap, measured inside it. Retains RECORDS million records (a Rec and its byte[352]: two
 * objects, about 400 bytes; 10 is about 4 GB and 20 million objects) in a static array of
 * chunks, beside a leak: LEAK Leak objects with an 8 KB payload each in a static field's
 * list (LEAKED), which main also holds in a local variable during the dump (the path a
 * person can act on is the static field, not the stack local). Then asks its own agent for
 * `dump,paths=3[,budget=...]` through the attach API while a meter thread records the
 * longest gap between its 1 ms naps: the application's longest stall.
 *
 *   javac -d /tmp/pw bench/PathsWalk.java
 *   java -Djdk.attach.allowAttachSelf=true -XX:+EnableDynamicAgentLoading -Xmx6g \
 *     -agentpath:build/libheapsampler.so=file=/tmp/exit.pb.gz -cp /tmp/pw \
 *     PathsWalk build/libheapsampler.so 10 /tmp/now.pb.gz [budget=5s]
 *
 * (Compiled first: run as a source file, the JDK's compiler and its objects share the heap
 * and the walk.)
 *
 * Prints "longest stall during the dump: N ms". The -paths profile's comments (and the
 * agent's answer on stdout) say what the walk reached and visited.
 */
import com.sun.tools.attach.VirtualMachine;

import java.util.ArrayList;
import java.util.List;

public class PathsWalk {
    static final int CHUNK = 100_000;
    static final int DATA = 352;
    static final int LEAK = 20_000;
    static final int PAYLOAD = 8192;

    static Rec[][] store;
    static final List<Leak> LEAKED = new ArrayList<>();

    static final class Rec {
        final long id;
        final byte[] data;
        Rec(long id, byte[] data) {
            this.id = id;
            this.data = data;
        }
    }

    static final class Leak {
        final byte[] payload;
        Leak(byte[] payload) {
            this.payload = payload;
        }
    }

    /** The longest gap between two wake-ups of a thread napping 1 ms at a time. */
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
        int records = Integer.parseInt(args[1]) * 1_000_000;
        String extra = args.length > 3 ? "," + args[3] : "";
        store = new Rec[(records + CHUNK - 1) / CHUNK][];
        long id = 0;
        for (int c = 0; c < store.length; c++) {
            Rec[] chunk = new Rec[CHUNK];
            for (int i = 0; i < CHUNK; i++) chunk[i] = new Rec(id++, new byte[DATA]);
            store[c] = chunk;
            if (c % (store.length / 4 + 1) == 0) leakSome(LEAK / 4);
        }
        leakSome(LEAK - LEAKED.size());
        System.gc();
        Thread.sleep(500); // the agent's sweeper records the last GC
        List<Leak> local = LEAKED; // a stack local that reaches the leak too
        StallMeter meter = new StallMeter();
        meter.start();
        Thread.sleep(200);
        long start = System.nanoTime();
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        vm.loadAgentPath(args[0], "dump,paths=3,file=" + args[2] + extra);
        vm.detach();
        long took = System.nanoTime() - start;
        Thread.sleep(200);
        meter.running = false;
        meter.join();
        System.out.printf("longest stall during the dump: %d ms (dump command %d ms; %d objects "
                + "retained, %d leaked)%n", meter.longestNanos / 1_000_000, took / 1_000_000,
                2L * records, local.size());
    }

    static void leakSome(int n) {
        for (int i = 0; i < n; i++) LEAKED.add(new Leak(new byte[PAYLOAD]));
    }
}
