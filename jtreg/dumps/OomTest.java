/*
 * @test id=G1
 * @summary OutOfMemoryError under G1: the main thread dies of it, yet a valid -oom profile
 *          exists whose top in-use site is the leaking method; the exit code is the one the
 *          program has without the agent
 * @requires vm.gc.G1
 * @library /lib /live
 * @build DumpWorkload LiveProfile
 * @run driver OomTest G1
 */
/*
 * @test id=Parallel
 * @summary OutOfMemoryError under the Parallel collector
 * @requires vm.gc.Parallel
 * @library /lib /live
 * @build DumpWorkload LiveProfile
 * @run driver OomTest Parallel
 */
/*
 * @test id=Z
 * @summary OutOfMemoryError under ZGC
 * @requires vm.gc.Z
 * @library /lib /live
 * @build DumpWorkload LiveProfile
 * @run driver OomTest Z
 */
/*
 * @test id=retry
 * @summary A program that catches OutOfMemoryError and retries 50 times gets one profile
 *          per episode (two episodes: heap-oom and heap-oom-2), not one per error
 * @requires vm.gc.G1 & jdk.version.major >= 17
 * @comment JDK 11 has no CollectedHeap::_used_at_last_gc: its heap figure comes from GcInfo,
 *          which needs the Java heap and fails while it is exhausted, so episodes cannot
 *          be told apart and no growth is seen (README, "JDKs and collectors")
 * @library /lib /live
 * @build DumpWorkload LiveProfile
 * @run driver OomTest retry
 */
/*
 * @test id=paths
 * @summary oom_paths=true: with the -oom profile, the reference chains that keep the leak
 *          alive (-oom-paths), and the growing site named at the default log level
 * @requires vm.gc.G1 & jdk.version.major >= 17
 * @comment JDK 11 has no CollectedHeap::_used_at_last_gc: its heap figure comes from GcInfo,
 *          which needs the Java heap and fails while it is exhausted, so episodes cannot
 *          be told apart and no growth is seen (README, "JDKs and collectors")
 * @library /lib /live
 * @build DumpWorkload LiveProfile
 * @run driver OomTest paths
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class OomTest {
    static final String LEAK = "DumpWorkload.leak";

    public static void main(String[] args) throws Exception {
        if (args[0].equals("retry")) {
            retry();
            return;
        }
        if (args[0].equals("paths")) {
            paths();
            return;
        }
        String gc = "-XX:+Use" + args[0] + "GC";
        AgentRunner.Result plain = AgentRunner.withoutAgent().jvmFlags(gc, "-Xmx64m")
                .label("no-agent").run("DumpWorkload", "die");
        AgentRunner.Result r = AgentRunner.withAgent("file=heap.pb.gz").jvmFlags(gc, "-Xmx64m")
                .label("oom-" + args[0]).run("DumpWorkload", "die");
        r.assertNoCrash().assertExitCode(plain.exitCode)
                .assertStderrContains("java.lang.OutOfMemoryError");
        r.assertAgentLine("OutOfMemoryError: wrote heap-oom.pb.gz");
        assertLeakOnTop(r, "heap-oom.pb.gz");
        // the peak is taken after GCs the agent's thread saw in time: on a slow machine the
        // last GCs before the error may all come at once, so its presence is not asserted
        if (Files.exists(r.file("heap-oom-peak.pb.gz"))) assertLeakOnTop(r, "heap-oom-peak.pb.gz");
    }

    /* The -oom profile's in-use view names the leaking method first, above any other site
     * (the residual pseudo-site included). */
    static void assertLeakOnTop(AgentRunner.Result r, String name) throws IOException {
        LiveProfile p = LiveProfile.read(r, name);
        if (p.commentsStartingWith("OutOfMemoryError").isEmpty() && !name.contains("peak")) {
            p.fail("no OutOfMemoryError comment");
        }
        Map<String, Long> bySite = p.pprof.samples.stream().collect(Collectors.groupingBy(
                s -> p.pprof.hasFrame(s, LEAK) ? LEAK : String.join(";", p.pprof.stackNames(s)),
                Collectors.summingLong(s -> s.value(p.pprof.typeIndex("inuse_space")))));
        String top = bySite.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
        System.out.println(name + " in-use by site: " + bySite);
        if (!top.equals(LEAK)) p.fail("top in-use site is " + top + ", not " + LEAK);
        long leaked = bySite.get(LEAK);
        // The -oom profile is as of the last GC before the error, when the leak filled the
        // heap; a peak profile is as of the GC with the most heap used after it, which on a
        // concurrent collector (ZGC) can come well before the end: only its order is checked.
        if (!name.contains("peak") && leaked < 32L << 20) {
            p.fail("the leak shows only " + leaked + " bytes in use of 64 MB");
        }
    }

    static void paths() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=heap.pb.gz,oom_paths=true")
                .jvmFlags("-XX:+UseG1GC", "-Xmx64m").label("oom-paths").run("DumpWorkload", "die");
        r.assertNoCrash().assertExitCode(1);
        r.assertAgentLine("OutOfMemoryError: wrote heap-oom-paths.pb.gz");
        r.assertAgentLine("suspect: " + LEAK);
        Pprof p = Pprof.read(r.file("heap-oom-paths.pb.gz")).validate();
        // KEPT is an ArrayList; at the error its `this` is also a local of the failing
        // frame, so the walk may reach it from the stack before the static field
        boolean chain = p.samples.stream().anyMatch(s -> p.leafName(s).equals("byte[]")
                && p.stackNames(s).contains("java.util.ArrayList.elementData"));
        if (!chain) r.fail("no retention path through KEPT's ArrayList.elementData in heap-oom-paths.pb.gz");
    }

    static void retry() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=heap.pb.gz,log=info")
                .jvmFlags("-XX:+UseG1GC", "-Xmx64m").label("retry").run("DumpWorkload", "retry");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("episode 1:");
        List<String> oomFiles;
        try (Stream<Path> files = Files.list(r.dir)) {
            oomFiles = files.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith("heap-oom") && !n.contains("peak")).sorted()
                    .collect(Collectors.toList());
        }
        if (!oomFiles.equals(List.of("heap-oom-2.pb.gz", "heap-oom.pb.gz"))) {
            r.fail("expected one profile per episode (heap-oom, heap-oom-2), found " + oomFiles);
        }
        for (String name : oomFiles) Pprof.read(r.file(name)).validate();
        Pprof.read(r.file("heap.pb.gz")).validate(); /* the program exited normally */
    }
}
