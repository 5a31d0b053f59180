/*
 * @test
 * @summary live=false: an allocation profile only. Two sample types (alloc_objects,
 *          alloc_space, the default), no live comments, no residual pseudo-site, no weak
 *          references created; the allocation estimates are unchanged
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveOffTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.List;

public class LiveOffTest {
    static final long INTERVAL = 8 * 1024;
    static final String PROFILE = "alloc.pb.gz";
    static final LiveProfile.Site RETAIN_A = new LiveProfile.Site("LiveWorkload.retainA", "byte[]");

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("live=false,rate=0,interval=" + INTERVAL + ",log=info,file=" + PROFILE)
                .jvmFlags("-Xmx512m").label("live-off").run("LiveWorkload", "plain");
        r.assertNoCrash().assertExitCode(0);
        for (String line : r.agentLines()) {
            if (line.contains("weak refs") || line.contains("heap source")) {
                r.fail("live=false, yet the agent tracks liveness: \"" + line + "\"");
            }
        }

        LiveProfile p = LiveProfile.read(r, PROFILE);
        List<Pprof.ValueType> expected = List.of(new Pprof.ValueType("alloc_objects", "count"),
                new Pprof.ValueType("alloc_space", "bytes"));
        if (!p.pprof.sampleTypes.equals(expected)) p.fail("sample types " + p.pprof.sampleTypes);
        if (!p.pprof.defaultSampleType.equals("alloc_space")) {
            p.fail("default sample type " + p.pprof.defaultSampleType);
        }
        for (String prefix : List.of("gc: ", "inuse: ", "live tracking: ", "live-set history: ")) {
            if (!p.commentsStartingWith(prefix).isEmpty()) p.fail("live comment \"" + prefix + "\"");
        }
        for (Pprof.Function f : p.pprof.functions) {
            if (f.name().equals(LiveProfile.RESIDUAL_SITE)) p.fail("residual pseudo-site present");
        }

        long size = p.objectSize(RETAIN_A);
        long truth = LiveWorkload.A_COUNT * size;
        double sigma = LiveProfile.relativeSigma(LiveWorkload.A_COUNT, size, INTERVAL);
        p.assertNear(RETAIN_A + " alloc_space", p.sum("alloc_space", RETAIN_A), truth,
                4 * sigma * truth);
    }
}
