/*
 * @test
 * @summary stop/start 200 times while 24 threads allocate (after the JDK's HeapMonitor
 *          ThreadOnOff test): no crash, no deadlock, no weak ref leaked; nothing allocated
 *          while sampling was stopped is in the profile, and what was allocated while it
 *          ran is estimated without bias
 * @library /lib /live
 * @build ControlWorkload LiveProfile
 * @run driver ToggleTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

public class ToggleTest {
    static final int TOGGLES = 200;

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent()
                .selfAttach().jvmFlags("-Xmx512m")
                .label("toggle")
                .run("ControlWorkload", AgentRunner.agentLibrary().toString(), "toggle",
                        Integer.toString(TOGGLES));
        r.assertNoCrash().assertExitCode(ControlWorkload.EXIT_CODE);
        LiveProfile.weakRefs(r).assertBalanced(r);
        long stops = r.stderr.lines().filter(l -> l.contains("heapsampler: sampling stopped;")).count();
        if (stops != TOGGLES) r.fail(stops + " stops logged, " + TOGGLES + " sent");

        Pprof p = Pprof.read(r.file("toggle.pb.gz")).validate();
        long off = p.sum("alloc_objects", s -> p.leafName(s).equals("ControlWorkload$OffMarker[]"));
        if (off != 0) r.fail("allocated only while stopped, yet in the profile: " + off + " objects");

        long onTruth = Long.parseLong(r.stdout.lines().filter(l -> l.startsWith("on-marker bytes "))
                .findFirst().orElseThrow().substring("on-marker bytes ".length()));
        long on = p.sum("alloc_space", s -> p.hasFrame(s, "ControlWorkload.toggle")
                && p.leafName(s).equals("long[]"));
        long size = 8L * ControlWorkload.ON_LENGTH + 16;
        double sigma = LiveProfile.relativeSigma(onTruth / size, size, 64 * 1024);
        if (Math.abs(on - onTruth) > 4 * sigma * onTruth) {
            r.fail("allocated while sampling ran: estimate " + on + ", truth " + onTruth
                    + " (4 sigma = " + Math.round(4 * sigma * onTruth) + ")");
        }
    }
}
