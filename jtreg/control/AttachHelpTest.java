/*
 * @test
 * @summary A first attach with "help" prints the options and returns an error to jcmd, and
 *          one with a bad option is refused; neither ends the JVM, which then loads the agent
 *          and exits with its own code
 * @library /lib
 * @build ControlWorkload
 * @run driver AttachHelpTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

public class AttachHelpTest {
    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent()
                .selfAttach()
                .label("attach-help")
                .run("ControlWorkload", AgentRunner.agentLibrary().toString(), "help");
        r.assertNoCrash().assertExitCode(ControlWorkload.EXIT_CODE);
        r.assertStdoutContains("REFUSED help");
        r.assertStdoutContains("interval"); // the option list
        r.assertStdoutContains("REFUSED bad-option");
        r.assertStderrContains("heapsampler: bad option 'interval=-5': negative");
        r.assertStdoutContains("OK load");
        Pprof.read(r.file("help.pb.gz")).validate();
    }
}
