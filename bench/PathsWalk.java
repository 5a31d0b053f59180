/*
 * PathsWalk: what `dump,paths=N` (the retention walk) costs on a large heap. Retains
 * CHUNKS arrays of 100,000 long[4] (48 bytes each: CHUNKS = 100 is about 520 MB), collects,
 * then asks its own agent for `dump,paths=4` through the attach API; the -paths profile's
 * "walk:" comment and the agent's "paths: walk" line (log=info) give the time.
 *
 *   java -Djdk.attach.allowAttachSelf=true -XX:+EnableDynamicAgentLoading -Xmx2g -Xms2g \
 *     -agentpath:build/libheapsampler.so=interval=8k,log=info,file=/tmp/exit.pb.gz \
 *     bench/PathsWalk.java build/libheapsampler.so 100 /tmp/now.pb.gz
 *
 * Run it under the benchmark lock when other benchmarks may run (see README.md).
 */
import com.sun.tools.attach.VirtualMachine;

public class PathsWalk {
    static Object[][] root;

    public static void main(String[] args) throws Exception {
        int chunks = Integer.parseInt(args[1]);
        root = new Object[chunks][];
        for (int c = 0; c < chunks; c++) {
            Object[] a = new Object[100_000];
            for (int i = 0; i < a.length; i++) a[i] = new long[4];
            root[c] = a;
            if (c % 20 == 0) System.gc();
        }
        System.gc();
        Thread.sleep(200); // the agent's sweeper records the last GC
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        vm.loadAgentPath(args[0], "dump,paths=4,file=" + args[2]);
        vm.detach();
    }
}
