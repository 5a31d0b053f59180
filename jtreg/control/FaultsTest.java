/*
 * @test
 * @summary The exit's slow paths, forced with HEAPSAMPLER_TEST_FAULTS: a sampling callback
 *          still inside the agent when VMDeath stops waiting for it, and a sweeper thread
 *          that has not exited when the final dump stops waiting for it. Either way: a
 *          valid profile, one line saying what was left allocated, no crash, and the
 *          program's own exit code
 * @library /lib
 * @build FaultWorkload
 * @run driver FaultsTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

public class FaultsTest {
    public static void main(String[] args) throws Exception {
        AgentRunner.Result late = run("late-callback", "callback_delay_ms=6000");
        late.assertStderrContains("heapsampler: exit: a sampling callback is still inside the agent");
        late.assertStderrContains("heapsampler: a sampling callback was still running at exit; "
                + "live tracker left allocated");

        AgentRunner.Result sweeper = run("late-sweeper", "sweeper_exit_delay_ms=8000");
        sweeper.assertStderrContains("heapsampler: sweeper thread still busy at exit");
        sweeper.assertStderrContains("heapsampler: live tracker left allocated: the sweeper thread "
                + "was still running");
    }

    static AgentRunner.Result run(String label, String faults) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("interval=4m,file=fault.pb.gz,log=info")
                .env("HEAPSAMPLER_TEST_FAULTS", faults).jvmFlags("-Xmx256m").label(label)
                .run("FaultWorkload");
        r.assertNoCrash().assertExitCode(FaultWorkload.EXIT_CODE);
        Pprof.read(r.file("fault.pb.gz")).validate();
        return r;
    }
}
