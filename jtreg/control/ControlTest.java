/*
 * @test
 * @summary Commands to a running agent through jcmd's attach path: a first attach loads the
 *          agent; later ones are commands. status (stdout and file=), dump,file=, stop,
 *          start with a new interval, help; an unknown command and a bad option are refused
 *          with one line and change nothing; jcmd itself works; the program keeps its exit
 *          code
 * @library /lib
 * @build ControlWorkload
 * @run driver ControlTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class ControlTest {
    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent()
                .selfAttach().jvmFlags("-Xmx256m")
                .label("commands")
                .run("ControlWorkload", AgentRunner.agentLibrary().toString(), "commands");
        r.assertNoCrash().assertExitCode(ControlWorkload.EXIT_CODE);

        for (String ok : List.of("load", "status", "status-file", "dump", "help", "stop",
                "status-stopped", "start", "status-restarted", "jcmd-status")) {
            r.assertStdoutContains("OK " + ok);
        }
        for (String refused : List.of("bogus", "bad-interval", "start-while-running", "stop-again")) {
            r.assertStdoutContains("REFUSED " + refused);
        }
        r.assertStderrContains("heapsampler: bad command 'bogus': unknown command; accepted: dump");
        r.assertStderrContains("heapsampler: bad option 'interval=lots': not a size");
        r.assertStderrContains("heapsampler: start: sampling is already running");
        r.assertStderrContains("heapsampler: stop: sampling is not running (stopped)");
        r.assertStdoutContains("dump[,file=PATTERN]"); // help

        // status on stdout, once by the attach API and once by jcmd
        long statusBlocks = r.stdout.lines().filter(l -> l.startsWith("heapsampler: state: running")).count();
        if (statusBlocks != 2) r.fail("expected 2 status blocks on stdout, saw " + statusBlocks);
        r.assertStdoutContains("heapsampler: interval: 65536 bytes");
        r.assertStdoutContains("heapsampler: live: ");
        r.assertStdoutContains("heapsampler: heap: ");
        r.assertStdoutContains("heapsampler: last dump: "); // from the dumps module
        r.assertStdoutContains("heapsampler: oom: on");
        r.assertStdoutContains("heapsampler: rate cap: "); // from the throttle
        String samples = r.stdout.lines().filter(l -> l.startsWith("heapsampler: samples: "))
                .findFirst().orElseThrow(() -> new AssertionError("no samples line"));
        long recorded = Long.parseLong(samples.replaceAll("heapsampler: samples: (\\d+) recorded.*", "$1"));
        if (recorded < 100) r.fail("status reports only " + recorded + " samples");

        String status = Files.readString(r.file("status.txt"));
        if (!status.startsWith("state: running\n")) r.fail("status.txt: " + status);
        // JDK 11-24's sampler bias (JDK-8356372) is said in status too, and only there
        boolean biased = Runtime.version().feature() < 25;
        if (status.contains("sampler bias: this JVM (JDK ") != biased) {
            r.fail("status.txt " + (biased ? "lacks" : "has") + " the JDK-8356372 line: " + status);
        }
        String stopped = Files.readString(r.file("status-stopped.txt"));
        if (!stopped.contains("state: stopped\n") || !stopped.contains("live: 0 objects tracked")) {
            r.fail("status after stop: " + stopped);
        }
        String restarted = Files.readString(r.file("status-restarted.txt"));
        if (!restarted.contains("state: running\n")
                || !restarted.contains("interval: 32768 bytes (one sample per 32.0 KiB allocated, on average; "
                        + "the run began at 64.0 KiB")) {
            r.fail("status after start,interval=32k: " + restarted);
        }

        // the dump: a valid profile showing the workload's retained site as live
        Path dump = r.file("dump-" + pidOf(r) + ".pb.gz");
        r.assertStdoutContains("heapsampler: dump written to ");
        Pprof p = Pprof.read(dump).validate();
        long live = p.sum("inuse_space", s -> p.hasFrame(s, "ControlWorkload.retain")
                && p.leafName(s).equals("byte[]"));
        long truth = (long) ControlWorkload.LIVE_COUNT * (ControlWorkload.LIVE_SIZE + 16);
        // 40 MB at 64k: ~610 samples, sigma ~4 %; 25 % is far outside sampling error
        if (live < truth * 0.75 || live > truth * 1.25) {
            r.fail("dump: ControlWorkload.retain in-use " + live + " bytes, retained " + truth);
        }
        Pprof.read(r.file("exit.pb.gz")).validate();
    }

    static long pidOf(AgentRunner.Result r) throws Exception {
        try (var files = Files.list(r.dir)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("dump-"))
                    .map(n -> Long.parseLong(n.replaceAll("dump-(\\d+)\\.pb\\.gz", "$1")))
                    .findFirst().orElseThrow(() -> new AssertionError("no dump-<pid>.pb.gz written"));
        }
    }
}
