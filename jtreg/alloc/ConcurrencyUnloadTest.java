/*
 * @test id=G1
 * @summary 16 threads allocating while another keeps loading, using and unloading classes
 *          whose methods allocate: the JVM exits normally without a crash, the classes
 *          are unloaded, and the profile is valid and names the unloaded methods and class
 * @requires vm.gc.G1
 * @library /lib
 * @build AllocProfiles UnloadWorkload unloadable.Churn
 * @run driver ConcurrencyUnloadTest -XX:+UseG1GC
 */
/*
 * @test id=Z
 * @summary The same under ZGC, which unloads classes concurrently with the application
 * @requires vm.gc.Z
 * @library /lib
 * @build AllocProfiles UnloadWorkload unloadable.Churn
 * @run driver ConcurrencyUnloadTest -XX:+UseZGC
 */
import heapsampler.AgentRunner;
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

public class ConcurrencyUnloadTest {
    static final String SECONDS = "10";
    static final String UNLOAD_MARK = "unloading class unloadable.Churn ";

    public static void main(String[] args) throws Exception {
        String gc = args[0];
        AgentRunner.Result r = AgentRunner.withAgent("interval=256k,rate=0,file=churn.pb.gz")
                .label("churn").timeout(Duration.ofSeconds(90))
                .jvmFlags(gc, "-Xmx256m", "-Xlog:class+unload=info:file=unload.log")
                .run("UnloadWorkload", SECONDS);
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("UnloadWorkload: done");
        // At the default log level a healthy run says nothing.
        r.assertAgentLineCount(0);

        long unloads = Files.readAllLines(r.file("unload.log")).stream()
                .filter(l -> l.contains(UNLOAD_MARK)).count();
        System.out.println(gc + ": " + unloads + " unloadable.Churn classes unloaded");
        if (unloads < 5) r.fail("only " + unloads + " unloads of unloadable.Churn in unload.log");

        Pprof p = AllocProfiles.readProfile(r, "churn.pb.gz");
        System.out.println(p.summary(10));
        AllocProfiles.SampleCounts counts = AllocProfiles.sampleCounts(p);
        if (counts.recorded() < 1000) r.fail("only " + counts.recorded() + " samples: " + counts);
        for (Pprof.Sample s : p.samples) {
            for (long v : s.values()) {
                if (v < 0) r.fail("negative value in " + p.frames(s));
            }
        }

        // The unloaded class's methods were named while they were alive.
        checkFrame(r, p, "unloadable.Churn.fill", "unloadable/Churn.fill(I)[Ljava/lang/Object;");
        checkFrame(r, p, "unloadable.Churn$Blob.<init>", "unloadable/Churn$Blob.<init>(JI)V");
        if (p.sumByLeaf("alloc_space").getOrDefault("unloadable.Churn$Blob", 0L) <= 0) {
            r.fail("no samples of unloadable.Churn$Blob objects");
        }
        if (p.sumWithFrame("alloc_space", "UnloadWorkload.allocateMix") <= 0) {
            r.fail("no samples from the allocating threads (UnloadWorkload.allocateMix)");
        }

        Optional<Path> go = GoPprof.findGo();
        if (go.isEmpty()) {
            System.out.println("skipped: go tool pprof -raw (go not found)");
        } else {
            GoPprof.Result raw = GoPprof.raw(go.get(), r.file("churn.pb.gz")).assertSuccess();
            if ((raw.stdout() + raw.stderr()).contains("unrecognized")) {
                throw new AssertionError("go tool pprof did not recognize the profile\n"
                        + raw.describe());
            }
        }
    }

    /** Some sample has the frame, with its signature, package-path filename and a line. */
    static void checkFrame(AgentRunner.Result r, Pprof p, String name, String systemName) {
        List<Pprof.Sample> samples = p.samplesWithFrame(name);
        if (samples.isEmpty()) r.fail("no sample has a frame " + name);
        for (Pprof.Frame f : p.frames(samples.get(0))) {
            if (!f.name().equals(name)) continue;
            if (!f.systemName().equals(systemName) || !f.filename().equals("unloadable/Churn.java")
                    || f.line() <= 0) {
                r.fail(name + ": expected " + systemName + " in unloadable/Churn.java with a "
                        + "line, got " + f.systemName() + " in " + f.filename() + ":" + f.line());
            }
            return;
        }
    }
}
