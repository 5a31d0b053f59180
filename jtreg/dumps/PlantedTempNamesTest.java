/*
 * @test
 * @summary Temporary names nobody can pre-create: a program that takes every name an
 *          earlier agent would have used for its temporary files (TARGET.tmp.PID.0..63, as a
 *          neighbour in a shared /tmp could) still gets its OutOfMemoryError profile, and the
 *          names it took are left alone
 * @requires vm.gc.G1
 * @library /lib
 * @build PlantedTempWorkload
 * @run driver PlantedTempNamesTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

public class PlantedTempNamesTest {
    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=heap.pb.gz").jvmFlags("-XX:+UseG1GC", "-Xmx64m")
                .label("planted").run("PlantedTempWorkload");
        r.assertNoCrash().assertExitCode(1).assertStdoutContains("planted 256 names")
                .assertStderrContains("java.lang.OutOfMemoryError");
        r.assertAgentLine("OutOfMemoryError: wrote heap-oom.pb.gz");
        Pprof.read(r.file("heap-oom.pb.gz")).validate();
        long left;
        try (Stream<Path> files = Files.list(r.dir)) {
            left = files.filter(f -> f.getFileName().toString().contains(".tmp.")).count();
        }
        if (left != 256) r.fail("the planted names are " + left + ", not 256: one was replaced or a temporary file left");
        if (r.stderr.contains("cannot write")) r.fail("a profile was not written");
    }
}
