/*
 * @test
 * @summary A million distinct stacks at interval=1k, with memory=16m so that the stack
 *          table overflows almost at once: no sample's weight is lost (alloc_space of the
 *          site's byte[1000], its own stacks plus [stack table full], within 5 % of the
 *          bytes it allocated), the overflow is announced by one warning at the first
 *          overflow and one at dump time, the profile's comment says how much was folded
 *          and names memory=, and the process RSS exceeds that of the same run without
 *          the agent by less than memory=
 * @library /lib
 * @build StackFlood
 * @run driver StackFloodTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.time.Duration;
import java.util.List;

/*
 * The site allocates 2^20 byte[1000] (1,016 bytes each), one per stack; at interval=1k each
 * is sampled with probability p = 1 - exp(-1016/1024) = 0.63, and the estimate's relative
 * standard deviation is sqrt((1-p)/(n p)) = 0.08 %: the 5 % the issue asks for is ~60
 * sigma, so any lost weight (the defect lost 83 %) shows and chance never does.
 */
public class StackFloodTest {
    static final String LEVELS = "20";
    static final long MEMORY_MB = 16;

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("interval=1k,rate=0,file=stacks.pb.gz,memory="
                        + MEMORY_MB + "m").label("stack-flood").timeout(Duration.ofSeconds(300))
                .jvmFlags("-Xmx256m", "-Xms256m").run("StackFlood", LEVELS, "1");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("StackFlood: done");
        long truth = number(r, "allocated-bytes");

        // Two lines, each once: at the first overflow, and the summary at dump time.
        r.assertAgentLineCount(2);
        String first = r.assertAgentLine("table full (memory=16m)");
        String dump = r.assertAgentLine("tables full: ");
        System.out.println(first + "\n" + dump);
        if (!dump.contains("memory=")) r.fail("the dump-time warning does not name memory=");

        Pprof p = Pprof.read(r.file("stacks.pb.gz")).validate();
        if (p.comments.stream().noneMatch(c -> c.startsWith("tables full: ") && c.contains("memory=")))
            r.fail("no 'tables full' comment naming memory= in " + p.comments);
        int space = p.typeIndex("alloc_space");
        long site = 0, folded = 0;
        for (Pprof.Sample s : p.samples) {
            Long bytes = Pprof.numLabel(s, "bytes");
            if (bytes == null || bytes != 1016 || !p.leafName(s).equals("byte[]")) continue;
            List<String> names = p.stackNames(s);
            if (names.contains("[stack table full]")) folded += s.value(space);
            else if (names.contains("StackFlood.walk")) site += s.value(space);
        }
        double ratio = (double) (site + folded) / truth;
        System.out.printf("truth %d bytes; site %d + folded %d = %.4f of truth%n", truth, site,
                folded, ratio);
        if (Math.abs(ratio - 1) > 0.05) r.fail("alloc_space / truth = " + ratio);
        if (folded < site) r.fail("expected most of the weight folded with memory=16m");

        // RSS: the same run without the agent is the baseline.
        AgentRunner.Result base = AgentRunner.withoutAgent().label("stack-flood-base")
                .jvmFlags("-Xmx256m", "-Xms256m").run("StackFlood", LEVELS, "1");
        base.assertNoCrash().assertExitCode(0);
        long extraKb = number(r, "rss-end-kb") - number(base, "rss-end-kb");
        System.out.println("agent RSS: +" + extraKb + " kB (memory=" + MEMORY_MB + "m)");
        if (extraKb > MEMORY_MB * 1024) r.fail("the agent's RSS " + extraKb + " kB exceeds memory=");
    }

    static long number(AgentRunner.Result r, String key) {
        for (String line : r.stdout.split("\n")) {
            if (line.startsWith(key + " ")) return Long.parseLong(line.substring(key.length() + 1).trim());
        }
        r.fail("no '" + key + "' line on stdout");
        return -1;
    }
}
