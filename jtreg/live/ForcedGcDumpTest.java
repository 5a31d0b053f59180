/*
 * @test
 * @summary dump,gc=1 judges the whole heap: on ZGC, whose complete markings the agent cannot
 *          tell, a plain dump shows a retained site's in-use bytes all liveness=unjudged; after
 *          dump,gc=1 (a forced full collection) they are liveness=confirmed, within 4 sigma of
 *          what the program retains, and the liveness comment names the forced collection
 * @requires vm.gc.Z
 * @library /lib
 * @build ForcedGcWorkload
 * @run driver ForcedGcDumpTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.function.Predicate;

public class ForcedGcDumpTest {
    static final long INTERVAL = 64 * 1024;
    static final String SITE = "ForcedGcWorkload.retain";

    public static void main(String[] args) throws Exception {
        // rate=0 and interval=64k: a 4-sigma band of about 16 % on 4,000 objects.
        AgentRunner.Result r = AgentRunner.withAgent("interval=64k,rate=0,log=info,file=exit.pb.gz")
                .jvmFlags("-XX:+UseZGC", "-Xmx512m", "-Djdk.attach.allowAttachSelf=true")
                .label("forced-gc")
                .run("ForcedGcWorkload", AgentRunner.agentLibrary().toString(), "plain.pb.gz", "forced.pb.gz");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("OK plain").assertStdoutContains("OK forced");
        r.assertStderrContains("gc=1: forced a full collection");

        Pprof plain = Pprof.read(r.file("plain.pb.gz")).validate();
        long plainConfirmed = plain.sum("inuse_space", site(plain).and(liveness("confirmed")));
        long plainUnjudged = plain.sum("inuse_space", site(plain).and(liveness("unjudged")));
        System.out.printf("plain dump: %s confirmed %d, unjudged %d%n", SITE, plainConfirmed, plainUnjudged);
        if (plainConfirmed != 0 || plainUnjudged <= 0) {
            r.fail("on ZGC without gc=1 the retained site should be all unjudged: " + plainConfirmed
                    + " confirmed, " + plainUnjudged + " unjudged");
        }

        Pprof forced = Pprof.read(r.file("forced.pb.gz")).validate();
        String comment = forced.comments.stream().filter(c -> c.startsWith("liveness: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no liveness comment"));
        if (!comment.contains("forced collection (gc=1)")) r.fail("liveness comment: " + comment);
        long confirmed = forced.sum("inuse_space", site(forced).and(liveness("confirmed")));
        long size = forced.samples.stream().filter(site(forced)).flatMap(s -> s.labels().stream())
                .filter(l -> l.key().equals("bytes")).mapToLong(Pprof.Label::num).max().orElse(0);
        long n = ForcedGcWorkload.RETAINED, truth = n * size;
        double prob = 1 - Math.exp(-(double) size / INTERVAL);
        double tolerance = 4 * Math.sqrt((1 - prob) / (n * prob)) * truth;
        System.out.printf("forced dump: %s confirmed %d, truth %d ± %.0f%n", SITE, confirmed, truth, tolerance);
        if (Math.abs(confirmed - truth) > tolerance) {
            r.fail("after gc=1, confirmed " + confirmed + " bytes, retained " + truth + " ± " + tolerance);
        }
    }

    static Predicate<Pprof.Sample> liveness(String value) {
        return s -> s.labels().stream().anyMatch(l -> l.key().equals("liveness") && l.str().equals(value));
    }

    static Predicate<Pprof.Sample> site(Pprof p) {
        return s -> {
            var names = p.stackNames(s);
            return names.size() > 1 && names.get(0).equals("byte[]") && names.get(1).equals(SITE);
        };
    }
}
