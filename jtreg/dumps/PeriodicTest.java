/*
 * @test
 * @summary dump_period=1s: a 5 s run writes at least 3 valid periodic files (-1, -2, ...)
 *          whose periods follow each other (time_nanos + duration_nanos = the next file's
 *          time_nanos); their allocation values cover their period only, so they add up to
 *          the exit profile's for the workload's site (the workload stops allocating before
 *          the last periodic dump: what comes after it is only in the exit profile); with
 *          keep=2 only the two newest periodic files remain
 * @library /lib
 * @build DumpWorkload
 * @run driver PeriodicTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

public class PeriodicTest {
    static final String SITE = "DumpWorkload.churn";
    static final Pattern PERIODIC = Pattern.compile("p-(\\d+)\\.pb\\.gz");

    public static void main(String[] args) throws Exception {
        // churn 3 s, then idle 2 s: whenever the churn ends, the next periodic dump (at most
        // 1 s later) comes before the exit and sees every allocation of the site
        AgentRunner.Result r = AgentRunner.withAgent("file=p.pb.gz,dump_period=1s,interval=64k,rate=0")
                .label("periodic").run("DumpWorkload", "periodic", "3000", "2000");
        r.assertNoCrash().assertExitCode(0);
        List<Integer> numbers = periodicNumbers(r.dir);
        if (numbers.size() < 3) r.fail("expected at least 3 periodic files, found " + numbers);

        long sum = 0;
        Pprof previous = null;
        for (int n : numbers) {
            Pprof p = Pprof.read(r.file("p-" + n + ".pb.gz")).validate();
            if (p.comments.stream().noneMatch(c -> c.startsWith("periodic profile " + n + ":"))) {
                r.fail("p-" + n + ".pb.gz lacks its 'periodic profile' comment: " + p.comments);
            }
            if (previous != null && p.timeNanos != previous.timeNanos + previous.durationNanos) {
                r.fail("period " + n + " starts at " + p.timeNanos + ", the previous one ended at "
                        + (previous.timeNanos + previous.durationNanos));
            }
            if (p.durationNanos < 500_000_000L || p.durationNanos > 3_000_000_000L) {
                r.fail("period " + n + " lasted " + p.durationNanos + " ns at dump_period=1s");
            }
            sum += p.sumWithFrame("alloc_space", SITE);
            previous = p;
        }
        Pprof exit = Pprof.read(r.file("p.pb.gz")).validate();
        long whole = exit.sumWithFrame("alloc_space", SITE);
        // Same samples on both sides: only each file's rounding to whole bytes differs.
        System.out.printf("%s alloc_space: periodic files %d, exit profile %d%n", SITE, sum, whole);
        if (whole <= 0 || Math.abs(whole - sum) > numbers.size()) {
            r.fail("periodic files add up to " + sum + " bytes for " + SITE + ", the exit profile "
                    + "has " + whole);
        }
        if (exit.timeNanos != Pprof.read(r.file("p-1.pb.gz")).timeNanos) {
            r.fail("the exit profile does not start where the first period does");
        }

        AgentRunner.Result kept = AgentRunner.withAgent("file=p.pb.gz,dump_period=1s,keep=2")
                .label("keep").run("DumpWorkload", "periodic", "3000", "1500");
        kept.assertNoCrash().assertExitCode(0);
        List<Integer> left = periodicNumbers(kept.dir);
        if (left.size() != 2) kept.fail("keep=2 left " + left);
        if (left.get(1) != left.get(0) + 1 || left.get(0) < 2) {
            kept.fail("keep=2 should leave the two newest periodic files, found " + left);
        }
        for (int n : left) Pprof.read(kept.file("p-" + n + ".pb.gz")).validate();
        Pprof.read(kept.file("p.pb.gz")).validate(); /* keep= never touches the exit profile */
    }

    /* The numbers n of the p-<n>.pb.gz files in dir, ascending. */
    static List<Integer> periodicNumbers(Path dir) throws IOException {
        List<Integer> numbers = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(f -> {
                Matcher m = PERIODIC.matcher(f.getFileName().toString());
                if (m.matches()) numbers.add(Integer.parseInt(m.group(1)));
            });
        }
        numbers.sort(null);
        return numbers;
    }
}
