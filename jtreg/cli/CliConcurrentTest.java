/*
 * @test
 * @summary 50 rounds of two commands at once (status and top) on one JVM: each gets its own,
 *          correct answer every time; the application's output and exit code are its own,
 *          and no file is left behind
 * @library /lib
 * @build CliTarget
 * @run driver CliConcurrentTest
 */
import heapsampler.Cli;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

public class CliConcurrentTest {
    static final int ROUNDS = 50;

    public static void main(String[] args) throws Exception {
        Set<Path> before = Cli.leftovers(List.of(Paths.get("/tmp")));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Cli.Target t = Cli.Target.withAgent("interval=16k").jvmFlags("-Xmx128m")) {
            t.start("CliTarget");
            String pid = t.pidString();
            for (int round = 1; round <= ROUNDS; round++) {
                Future<Cli.Result> status = pool.submit(() -> Cli.run("status", pid));
                Future<Cli.Result> top = pool.submit(() -> Cli.run("top", pid, "-n", "5"));
                Cli.Result s = status.get(), r = top.get();
                s.assertOk().assertStdoutContains("state: running");
                if (s.stdout.contains("CliTarget.retain")) s.fail("round " + round + ": status got top's answer");
                r.assertOk().assertFirstRow("CliTarget.retain", "byte[]");
                if (r.stdout.contains("state: running")) r.fail("round " + round + ": top got status's answer");
            }
            System.out.println(ROUNDS + " rounds of status + top at once: all answered");
            t.assertUndisturbed(CliTarget.EXIT_CODE);
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp"), t.dir()), t.pid());
        } finally {
            pool.shutdownNow();
        }
    }
}
