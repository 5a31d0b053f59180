/*
 * ControlWorkload: a program that drives heapsampler in its own JVM through the attach
 * mechanism jcmd uses (VirtualMachine.loadAgentPath = JVMTI.agent_load), for the control
 * tests. Needs -Djdk.attach.allowAttachSelf=true. Prints "OK <step>" / "REFUSED <step>"
 * lines the tests read; exits with EXIT_CODE so a test can tell its own exit from the
 * agent's.
 *
 *   ControlWorkload <library> commands   load by attach, then every command once
 *   ControlWorkload <library> toggle N   stop/start N times while 24 threads allocate
 *   ControlWorkload <library> help       attach with "help" and with a bad option, then load
 */
import com.sun.tools.attach.VirtualMachine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

public class ControlWorkload {
    static final int EXIT_CODE = 9;
    /** Retained by retain(): LIVE_COUNT arrays of LIVE_SIZE bytes. */
    static final int LIVE_COUNT = 4000;
    static final int LIVE_SIZE = 10_000;
    /** Allocated by the toggler while sampling is on, per window. */
    static final int ON_PER_WINDOW = 64;
    static final int ON_LENGTH = 1021; // long[1021]: 8184 + 16 bytes
    static volatile Object sink;
    static final List<byte[]> retained = new ArrayList<>();

    static VirtualMachine vm;
    static String library;

    public static void main(String[] args) throws Exception {
        library = args[0];
        vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        switch (args[1]) {
            case "commands": commands(); break;
            case "toggle": toggle(Integer.parseInt(args[2])); break;
            case "help": help(); break;
            default: throw new IllegalArgumentException(args[1]);
        }
        vm.detach();
        System.out.flush();
        System.exit(EXIT_CODE);
    }

    /** Runs one attach command; prints OK or REFUSED with the step name. */
    static boolean send(String step, String command) {
        try {
            vm.loadAgentPath(library, command);
            System.out.println("OK " + step);
            return true;
        } catch (Exception e) { // AgentLoadException / AgentInitializationException
            System.out.println("REFUSED " + step + ": " + e);
            return false;
        } finally {
            System.out.flush();
        }
    }

    static void retain() {
        for (int i = 0; i < LIVE_COUNT; i++) retained.add(new byte[LIVE_SIZE]);
    }

    static void churn(int n) {
        for (int i = 0; i < n; i++) sink = new byte[1000];
    }

    static void commands() throws Exception {
        send("load", "interval=64k,file=exit.pb.gz,log=info,rate=0"); // the dump's estimate is checked
        retain();
        churn(200_000);
        System.gc();
        send("status", "status");
        send("status-file", "status,file=status.txt");
        send("dump", "dump,file=dump-%p.pb.gz");
        send("bogus", "bogus");
        send("bad-interval", "start,interval=lots");
        send("start-while-running", "start");
        send("help", "help");
        send("stop", "stop");
        send("status-stopped", "status,file=status-stopped.txt");
        send("stop-again", "stop");
        send("start", "start,interval=32k");
        send("status-restarted", "status,file=status-restarted.txt");
        jcmd("status");
    }

    /** The README's way: jcmd <pid> JVMTI.agent_load <library> <command>. */
    static void jcmd(String command) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(ProcessHandle.current().pid()),
                "JVMTI.agent_load", library, command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        System.out.println((done && p.exitValue() == 0 ? "OK" : "REFUSED") + " jcmd-" + command
                + ": " + out.replace('\n', ' '));
    }

    static void toggle(int times) throws Exception {
        // rate=0: the estimate checked (bursts right after each start) is held to the JVM
        // sampler's 4 sigma; the rate cap would add its own variance
        send("load", "interval=64k,file=toggle.pb.gz,log=info,rate=0");
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 24; t++) {
            Thread thread = new Thread(() -> {
                List<Object> keep = new ArrayList<>();
                for (long i = 0; !done.get(); i++) {
                    keep.add(new int[64 + (int) (i % 200)]);
                    if (keep.size() > 2000) keep.clear();
                }
            }, "allocator-" + t);
            thread.start();
            threads.add(thread);
        }
        long onBytes = 0;
        for (int i = 0; i < times; i++) {
            if (!send("stop-" + i, "stop")) throw new AssertionError("stop " + i + " refused");
            for (int k = 0; k < 32; k++) sink = new OffMarker[1000];
            if (!send("start-" + i, "start")) throw new AssertionError("start " + i + " refused");
            for (int k = 0; k < ON_PER_WINDOW; k++) {
                sink = new long[ON_LENGTH];
                onBytes += 8L * ON_LENGTH + 16;
            }
        }
        done.set(true);
        for (Thread t : threads) t.join();
        System.out.println("on-marker bytes " + onBytes);
    }

    static void help() throws Exception {
        send("help", "help");
        send("bad-option", "interval=-5");
        send("load", "interval=64k,file=help.pb.gz");
        churn(100_000);
    }

    static final class OffMarker {
        long a, b;
    }
}
