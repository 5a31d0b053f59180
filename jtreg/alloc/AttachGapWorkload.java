/*
 * AttachGapWorkload: threads that exist before heapsampler is attached, and threads started
 * after, allocate the same: THREADS threads each allocate ARRAYS Rec[256] at a site of its
 * own (allocateInOldThread, allocateInNewThread), the old ones parked (no allocation) while
 * the agent is attached through the attach mechanism jcmd uses (needs
 * -Djdk.attach.allowAttachSelf=true). Prints the objects each site allocated; exits 0.
 *
 *   AttachGapWorkload <library> <agent options>
 */
import com.sun.tools.attach.VirtualMachine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

public class AttachGapWorkload {
    static final int THREADS = 60;
    static final int ARRAYS = 1000;

    static final class Rec {
    }

    static volatile Object sink;
    static volatile boolean go;

    static void allocateInOldThread() {
        for (int i = 0; i < ARRAYS; i++) sink = new Rec[256];
    }

    static void allocateInNewThread() {
        for (int i = 0; i < ARRAYS; i++) sink = new Rec[256];
    }

    /** Starts the threads, then waits for them all. */
    static void runAll(Thread[] threads) throws InterruptedException {
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
    }

    public static void main(String[] args) throws Exception {
        AtomicInteger parked = new AtomicInteger();
        Thread[] old = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            old[i] = new Thread(() -> {
                parked.incrementAndGet();
                while (!go) LockSupport.parkNanos(1_000_000L); // allocates nothing while parked
                allocateInOldThread();
            }, "old-" + i);
            old[i].start();
        }
        while (parked.get() < THREADS) Thread.sleep(10);
        // Retires every TLAB: before JDK 25 HotSpot never counts down the bytes of a TLAB it
        // filled while nobody sampled (a loss no weight can repair, not what this measures).
        System.gc();
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
        try {
            vm.loadAgentPath(args[0], args[1]);
        } finally {
            vm.detach();
        }
        go = true;
        for (Thread t : old) t.join();
        Thread[] fresh = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) fresh[i] = new Thread(AttachGapWorkload::allocateInNewThread, "new-" + i);
        runAll(fresh);
        System.out.println("objects per site: " + (long) THREADS * ARRAYS);
    }
}
