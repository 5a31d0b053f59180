/*
 * @test id=G1
 * @summary The agent tells the collector from its -XX flags, read through VMStructs: with
 *          G1 and the default options (live=true, heap_source=auto) it loads no management
 *          class at all, and finds G1's region size in the flag table too
 * @requires vm.gc.G1
 * @library /lib
 * @build ExitWith
 * @run driver CollectorFlagsTest G1
 */
/*
 * @test id=Parallel
 * @summary With Parallel the flags give the collector, and gcinfo, which needs the collector
 *          MXBeans, is still set up (so the management classes are loaded then)
 * @requires vm.gc.Parallel
 * @library /lib
 * @build ExitWith
 * @run driver CollectorFlagsTest Parallel
 */
/*
 * @test id=Z
 * @summary ZGC's mode from the flags and the JDK version: non-generational on JDK 17 (read
 *          through vmstructs), generational from JDK 24 (gcinfo), as its MXBean names say
 * @requires vm.gc.Z
 * @library /lib
 * @build ExitWith
 * @run driver CollectorFlagsTest Z
 */
import heapsampler.AgentRunner;

import java.util.List;
import java.util.stream.Collectors;

public class CollectorFlagsTest {
    public static void main(String[] args) throws Exception {
        String gc = args[0];
        AgentRunner.Result r = AgentRunner.withAgent("log=debug,file=flags.pb.gz")
                .jvmFlags("-XX:+Use" + gc + "GC", "-Xlog:class+load=info:stdout")
                .label("flags-" + gc).run("ExitWith", "0");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(ExitWith.MARKER);
        if (!r.assertAgentLine("collector flags: ").endsWith(": " + kind(gc))) {
            r.fail("the flags do not give the collector " + kind(gc));
        }
        String chosen = r.assertAgentLine("heap source " + source(gc));
        if (!chosen.endsWith("(" + kind(gc) + ")")) r.fail("not the " + kind(gc) + " collector");
        if (r.agentLines().stream().anyMatch(l -> l.contains("MXBeans"))) {
            r.fail("the collector was looked up through its MXBeans");
        }
        List<String> management = r.stdout.lines()
                .filter(l -> l.contains("java.lang.management.") || l.contains("sun.management."))
                .collect(Collectors.toList());
        if (source(gc).equals("gcinfo") == management.isEmpty()) {
            r.fail(source(gc) + " heap source, yet " + management.size()
                    + " management classes loaded: "
                    + management.stream().limit(5).collect(Collectors.toList()));
        }
        if (gc.equals("G1")) {
            r.assertAgentLine("from the G1HeapRegionSize flag in VMStructs");
        }
        System.out.println(gc + ": " + kind(gc) + ", heap source " + source(gc) + ", "
                + management.size() + " management classes loaded");
    }

    /** The collector as the agent names it. ZGC is generational by default from JDK 23 on,
     *  but only JDK 24 dropped the other mode (and the ZGenerational flag). */
    static String kind(String gc) {
        if (!gc.equals("Z")) return gc;
        int feature = Runtime.version().feature();
        return feature >= 23 ? "Z (generational)" : "Z";
    }

    /** What heap_source=auto picks for it (JDK 11 has no CollectedHeap::_used_at_last_gc). */
    static String source(String gc) {
        return gc.equals("Parallel") || kind(gc).equals("Z (generational)")
                || Runtime.version().feature() < 17 ? "gcinfo" : "vmstructs";
    }
}
