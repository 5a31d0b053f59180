/*
 * @test
 * @summary Under G1 the agent finds CollectedHeap::_used_at_last_gc by calibration (offset
 *          24 on JDK 17 and 21, 32 on JDK 25) and reads the heap after the last GC from it:
 *          the same figure the program gets from GcInfo, and the same the agent reports
 *          when told to use GcInfo itself; on JDK 11, which has no such field, calibration
 *          fails closed and auto falls back to GcInfo
 * @requires vm.gc.G1
 * @library /lib
 * @build LiveWorkload
 * @run driver CalibrationTest
 */
import heapsampler.AgentRunner;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class CalibrationTest {
    static final String PROFILE = "calibration.pb.gz";
    static final Pattern CALIBRATED = Pattern.compile(
            "heap source vmstructs: CollectedHeap::_used_at_last_gc at offset (\\d+) \\(G1\\)");

    public static void main(String[] args) throws Exception {
        if (Runtime.version().feature() < 17) {
            checkNoField();
            return;
        }
        for (String source : new String[] {"auto", "vmstructs", "gcinfo"}) {
            check(source);
        }
    }

    /**
     * JDK 11's CollectedHeap has no _used_at_last_gc (the figure is the static
     * Universe::_heap_used_at_last_gc there, which VMStructs does not export): calibration
     * must fail closed, heap_source=vmstructs then has no figure, and auto uses GcInfo.
     */
    static void checkNoField() throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("heap_source=vmstructs,log=info,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xmx512m").label("calibration-vmstructs")
                .run("LiveWorkload", "plain");
        r.assertNoCrash().assertExitCode(0);
        r.assertAgentLine("heap_source=vmstructs unavailable: no single field before "
                + "CollectedHeap::_reserved");
        r.assertAgentLine("heap source none (G1): the requested source is unavailable");
        check("gcinfo");
        AgentRunner.Result auto = AgentRunner.withAgent("log=info,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xmx512m").label("calibration-auto")
                .run("LiveWorkload", "plain");
        auto.assertNoCrash().assertExitCode(0);
        auto.assertAgentLine("heap source gcinfo (G1)");
        System.out.println("JDK " + Runtime.version().feature() + ": no _used_at_last_gc, "
                + "vmstructs fails closed, auto uses gcinfo");
    }

    static void check(String requested) throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("heap_source=" + requested + ",log=info,file=" + PROFILE)
                .jvmFlags("-XX:+UseG1GC", "-Xmx512m").label("calibration-" + requested)
                .run("LiveWorkload", "plain");
        r.assertNoCrash().assertExitCode(0);
        String expectedSource = requested.equals("gcinfo") ? "gcinfo" : "vmstructs";
        if (expectedSource.equals("vmstructs")) {
            checkOffset(r, r.assertAgentLine("heap source vmstructs: "));
        } else {
            r.assertAgentLine("heap source gcinfo (G1)");
        }
        for (String line : r.agentLines()) {
            if (line.contains("warn") || line.contains("unavailable")) r.fail("\"" + line + "\"");
        }

        LiveProfile p = LiveProfile.read(r, PROFILE);
        LiveProfile.GcComment g = p.gcComment();
        if (!g.gc().equals("G1") || !g.heapKnown() || !g.source().equals(expectedSource)) {
            p.fail("expected \"gc: G1; heap used after last GC: <N> bytes (source "
                    + expectedSource + ")\": " + g);
        }
        // After a full GC (the program's System.gc()), G1 sets _used_at_last_gc and the
        // GcInfo of "G1 Old Generation" from the same pause: the figures are equal.
        long jvmHeap = LiveProfile.workloadHeapAfterGc(r);
        if (g.heapBytes() != jvmHeap) {
            p.fail("heap_source=" + requested + ": the agent read " + g.heapBytes()
                    + " bytes, GcInfo says " + jvmHeap);
        }
        System.out.println("heap_source=" + requested + ": " + g.source() + " " + g.heapBytes()
                + " bytes = GcInfo " + jvmHeap);
    }

    /** The offset found by calibration: 24 on JDK 17 and 21, 32 on JDK 25. */
    static void checkOffset(AgentRunner.Result r, String line) {
        Matcher m = CALIBRATED.matcher(line);
        if (!m.find()) r.fail("\"" + line + "\" does not match " + CALIBRATED);
        int offset = Integer.parseInt(m.group(1));
        int feature = Runtime.version().feature();
        int expected = feature == 17 || feature == 21 ? 24 : feature == 25 ? 32 : -1;
        System.out.println("JDK " + feature + ": _used_at_last_gc at offset " + offset);
        if (expected > 0 ? offset != expected : offset <= 0 || offset % 8 != 0) {
            r.fail("JDK " + feature + ": offset " + offset + (expected > 0
                    ? ", expected " + expected : ", not a positive multiple of 8"));
        }
    }
}
