/*
 * @test id=epsilon
 * @summary Epsilon never collects: every object allocated since the agent started is still
 *          in the heap, so the profile's in-use values are its allocation values (site by
 *          site, exactly), the profile opens on inuse_space, and its first comment and the
 *          text report's header say why
 * @requires vm.gc.Epsilon
 * @library /lib
 * @build NoCollectionWorkload
 * @run driver NoCollectionTest epsilon
 */
/*
 * @test id=no-gc-yet
 * @summary A collector that collects but has not yet (a short run): in-use is not known, so
 *          the in-use values stay 0, the profile opens on alloc_space and says why at the
 *          top, and the text report says so and ranks the sites by what they allocated
 * @requires vm.gc.G1
 * @library /lib
 * @build NoCollectionWorkload
 * @run driver NoCollectionTest no-gc-yet
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.util.List;

public class NoCollectionTest {
    static final String PROFILE = "exit.pb.gz", REPORT = "top.txt";
    static final String RETAIN = "NoCollectionWorkload.retain", GARBAGE = "NoCollectionWorkload.garbage";
    static final String EPSILON_NOTE = "in use = allocated since the agent started: Epsilon never collects the heap";
    static final String NO_GC_NOTE = "in use: not known yet: in-use values are as of the last GC, and G1 has not collected yet";

    public static void main(String[] args) throws Exception {
        boolean epsilon = args[0].equals("epsilon");
        // The heap is large enough that no collection is needed: 50 MB allocated in all
        // (Epsilon: a 256 MB heap; G1: a 512 MB young generation, so no young GC either).
        String[] flags = epsilon
                ? new String[] {"-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xms256m", "-Xmx256m"}
                : new String[] {"-XX:+UseG1GC", "-Xms1g", "-Xmx1g", "-Xmn512m"};
        AgentRunner.Result r = AgentRunner.withAgent("interval=64k,rate=0,file=" + PROFILE)
                .jvmFlags(flags).jvmFlags("-Djdk.attach.allowAttachSelf=true").label(args[0])
                .run("NoCollectionWorkload", AgentRunner.agentLibrary().toString(), REPORT);
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("OK report");

        Pprof p = Pprof.read(r.file(PROFILE)).validate();
        String inuse = p.comments.stream().filter(c -> c.startsWith("inuse: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no inuse comment: " + p.comments));
        System.out.println(inuse);
        if (!epsilon && !inuse.contains("as of the last GC (epoch 0)")) {
            r.fail("premise: a GC ran, this run is not about a profile before the first GC: " + inuse);
        }
        String note = epsilon ? EPSILON_NOTE : NO_GC_NOTE;
        int at = indexOfPrefix(p.comments, note);
        int version = indexOfPrefix(p.comments, "heapsampler ");
        System.out.println("comment " + at + ": " + (at >= 0 ? p.comments.get(at) : "(none)"));
        if (at < 0 || at > version) r.fail("the note is not at the top of the comments: " + p.comments);
        String type = epsilon ? "inuse_space" : "alloc_space";
        if (!p.defaultSampleType.equals(type)) {
            r.fail("default sample type " + p.defaultSampleType + ", expected " + type);
        }

        long allocated = p.sum("alloc_space", s -> true), inUse = p.sum("inuse_space", s -> true);
        System.out.printf("alloc_space %d, inuse_space %d%n", allocated, inUse);
        if (allocated <= 0) r.fail("nothing allocated");
        if (epsilon) {
            int[] types = {p.typeIndex("alloc_objects"), p.typeIndex("alloc_space"),
                           p.typeIndex("inuse_objects"), p.typeIndex("inuse_space")};
            for (Pprof.Sample s : p.samples) { // every sampled object is still in the heap
                if (s.value(types[0]) != s.value(types[2]) || s.value(types[1]) != s.value(types[3])) {
                    r.fail("in use differs from allocated under Epsilon: " + p.stackNames(s));
                }
            }
        } else if (inUse != 0) {
            r.fail("before the first GC nothing is judged in use, found " + inUse + " bytes");
        }

        List<String> report = Files.readAllLines(r.file(REPORT));
        System.out.println(String.join("\n", report));
        String header = String.join(" ", report.subList(0, Math.min(4, report.size()))).replaceAll("\\s+", " ");
        if (!header.contains(note)) r.fail("the report's header does not say what in use is: " + header);
        // In use ranks the rows; under Epsilon it is what was allocated; before G1's first
        // GC it is 0 everywhere and the rows follow what was allocated (not the site names,
        // which would put the garbage first): the retained arrays (30 MB) first, the garbage
        // (20 MB) second, either way.
        String first = report.stream().filter(l -> l.trim().startsWith("1 ")).findFirst()
                .orElseThrow(() -> new AssertionError("no first row"));
        if (!first.contains(RETAIN)) r.fail("the first row should be " + RETAIN + ": " + first);
        if (report.stream().noneMatch(l -> l.trim().startsWith("2 ") && l.contains(GARBAGE))) {
            r.fail("the second row should be " + GARBAGE);
        }
    }

    static int indexOfPrefix(List<String> comments, String prefix) {
        for (int i = 0; i < comments.size(); i++) {
            if (comments.get(i).startsWith(prefix)) return i;
        }
        return -1;
    }
}
