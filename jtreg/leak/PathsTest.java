/*
 * @test
 * @summary Retention paths on demand: `dump,paths=1` writes a second profile (-paths suffix)
 *          whose stack for the largest in-use site (byte[] payloads) is the known holder
 *          chain, root first: static map -> table -> entry -> list -> array -> node ->
 *          byte[], through the static field although a stack local holds the map too; its
 *          comments say what the walk reached and visited, and its pauses
 * @library /lib
 * @build LeakPaths
 * @run driver PathsTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class PathsTest {
    static final List<String> CHAIN = List.of("LeakPaths.HOLDER", "java.util.HashMap.table",
            "java.util.HashMap$Node[]", "java.util.HashMap$Node.value",
            "java.util.ArrayList.elementData", "java.lang.Object[]", "LeakPaths$Node.payload",
            "byte[]");

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("interval=16k,log=info,file=exit.pb.gz")
                .selfAttach().jvmFlags("-Xmx256m")
                .label("paths")
                .run("LeakPaths", AgentRunner.agentLibrary().toString(), "now.pb.gz");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("OK paths");
        Pprof.read(r.file("now.pb.gz")).validate();
        Pprof paths = Pprof.read(r.file("now-paths.pb.gz")).validate();

        if (paths.samples.isEmpty()) r.fail("the paths profile has no sample: " + paths.comments);
        for (Pprof.Sample s : paths.samples) {
            List<String> rootFirst = new ArrayList<>(paths.stackNames(s));
            Collections.reverse(rootFirst);
            System.out.println("path: " + String.join(" -> ", rootFirst));
            int from = rootFirst.size() - CHAIN.size();
            if (from < 1 || !rootFirst.subList(from, rootFirst.size()).equals(CHAIN)) {
                r.fail("path does not end with the holder chain " + CHAIN + ": " + rootFirst);
            }
            if (!rootFirst.get(0).startsWith("[")) r.fail("the path does not start at a root: " + rootFirst);
            if (rootFirst.get(0).equals("[stack local]") || rootFirst.get(0).equals("[JNI local]")) {
                r.fail("the path starts at a local, not through the static field: " + rootFirst);
            }
        }
        String walk = paths.comments.stream().filter(c -> c.startsWith("walk: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no walk comment: " + paths.comments));
        System.out.println(walk);
        if (!walk.matches("walk: reached 4 of 4 objects \\(1 of 1 sites\\); visited [0-9.]+ M objects, "
                + "[0-9.]+ [KMG]iB of [0-9.]+ [KMG]iB used \\([0-9.]+ %\\); [0-9]+ walks?, longest pause [0-9]+ ms.*; "
                + "every object sought was reached")) {
            r.fail("walk comment: " + walk);
        }
        // The site holds NODES payloads: its in-use estimate, spread over its paths, is near that.
        long total = paths.total("inuse_space");
        long truth = (long) LeakPaths.NODES * (LeakPaths.PAYLOAD + 16);
        System.out.printf("paths in-use total %d, retained %d%n", total, truth);
        if (total < truth / 2 || total > truth * 2) r.fail("paths total " + total + " far from " + truth);
    }
}
