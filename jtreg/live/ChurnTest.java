/*
 * @test
 * @summary Live tracking under stress: 32 threads (started and ended all the time) with
 *          objects of mixed lifetimes, classes defined and unloaded all the time, frequent
 *          GCs, and a tracking table of 256 entries that must thin. No crash, a valid
 *          profile, no weak reference leaked, dead objects reported dead, methods of
 *          unloaded classes named, and the one site that retains a known amount estimated
 *          within the precision the thinning leaves
 * @library /lib
 * @build ChurnWorkload ChurnPayload
 * @run driver ChurnTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class ChurnTest {
    static final int SECONDS = 20;
    static final int THREADS = 32;
    static final int KNOWN_MIB = 64;
    static final long INTERVAL = 16 * 1024;
    static final int TRACK = 256;
    static final String PROFILE = "churn.pb.gz";
    static final String UNLOAD_LOG = "class-unload.log";

    static final LiveProfile.Site KNOWN = new LiveProfile.Site("ChurnWorkload.retainKnown", "byte[]");
    /** Sites whose objects are all garbage at the end (leaf = what the site allocates). */
    static final List<LiveProfile.Site> DEAD_AT_END = List.of(
            new LiveProfile.Site("ChurnWorkload$Slot.mediumLived", "long[]"),
            new LiveProfile.Site("ChurnWorkload$Slot.mediumLived", "int[]"),
            new LiveProfile.Site("ChurnWorkload$Slot.longLived", "char[]"),
            new LiveProfile.Site("ChurnWorkload$Slot.shortLived", "byte[]"),
            new LiveProfile.Site("ChurnPayload.apply", "ChurnPayload"));

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=" + INTERVAL + ",track=" + TRACK + ",log=info,file=" + PROFILE)
                .jvmFlags("-Xmx512m", "-Xlog:class+unload=info:file=" + UNLOAD_LOG)
                .timeout(Duration.ofSeconds(SECONDS + 100)).label("churn")
                .run("ChurnWorkload", Integer.toString(SECONDS), Integer.toString(THREADS),
                        Integer.toString(KNOWN_MIB));
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(ChurnWorkload.DONE_LINE);

        long unloaded = classesUnloaded(r);
        LiveProfile.WeakRefs refs = LiveProfile.weakRefs(r);
        System.out.println("unloaded " + unloaded + " ChurnPayload classes; " + refs);
        refs.assertBalanced(r);
        if (unloaded < 100) r.fail("only " + unloaded + " ChurnPayload classes were unloaded");

        LiveProfile p = LiveProfile.read(r, PROFILE);
        LiveProfile.TrackingComment tracking = p.trackingComment();
        if (tracking.entries() > TRACK || tracking.entries() != refs.trackedAtExit()) {
            p.fail("table entries " + tracking.entries() + " vs capacity " + TRACK
                    + " and weak refs tracked at exit " + refs.trackedAtExit());
        }
        if (refs.created() <= 4L * TRACK) {
            p.fail("only " + refs.created() + " weak refs created: the table was never stressed");
        }

        // Methods of classes unloaded long ago still have their names.
        LiveProfile.Site payload = DEAD_AT_END.get(DEAD_AT_END.size() - 1);
        if (p.sum("alloc_space", payload) <= 0) p.fail("no samples from " + payload);
        for (LiveProfile.Site site : DEAD_AT_END) {
            long inuse = p.sum("inuse_space", site);
            long alloc = p.sum("alloc_space", site);
            System.out.println(site + ": alloc_space " + alloc + ", inuse_space " + inuse);
            if (alloc <= 0) p.fail(site + ": nothing sampled");
            if (inuse != 0 || p.sum("inuse_objects", site) != 0) {
                p.fail(site + ": everything it allocated is garbage, yet inuse_space " + inuse);
            }
        }
        checkKnownSite(p, r, tracking);
    }

    /**
     * The site that retains a known amount all along. Its samples were all taken before the
     * churn started, so each of its surviving table entries was thinned to the same level L
     * and stands for w = 2^L samples. Its estimate is then (entries * w) / p objects, whose
     * variance has two parts: the JVM's sampling, (1 - p) / (n p) relative, and the
     * thinning, each sample kept with probability 1/w and counted w times: (w - 1) / (n p).
     * So sigma_rel = sqrt((w - p) / (n p)).
     *
     * The profile does not report L (the table's level in the comment is the current one,
     * and falls again once the churn stops), so w is bounded from the profile itself: the
     * site's weight in JVM samples is W = inuse_objects * p = entries_site * w, and
     * entries_site >= E - (weights of all other live sites), E being the table's entries
     * at exit (every other entry weighs at least one sample). w <= W / that bound.
     */
    static void checkKnownSite(LiveProfile p, AgentRunner.Result r,
                               LiveProfile.TrackingComment tracking) {
        long count = ((long) KNOWN_MIB << 20) / ChurnWorkload.KNOWN_LENGTH;
        long size = p.objectSize(KNOWN);
        double prob = LiveProfile.sampleProbability(size, INTERVAL);
        long inuseObjects = p.sum("inuse_objects", KNOWN);
        double weight = inuseObjects * prob;

        int inuseObjectsIndex = p.pprof.typeIndex("inuse_objects");
        double others = 0;
        for (Pprof.Sample s : p.pprof.samples) {
            long objects = s.value(inuseObjectsIndex);
            if (objects == 0 || p.matches(s, KNOWN)) continue;
            Long otherSize = Pprof.numLabel(s, "bytes");
            others += objects * LiveProfile.sampleProbability(otherSize == null ? 1 : otherSize,
                    INTERVAL);
        }
        double knownEntriesAtLeast = Math.max(1, tracking.entries() - Math.ceil(others));
        double perEntry = Math.max(1, weight / knownEntriesAtLeast);
        double sampled = count * prob;
        double sigma = Math.sqrt((perEntry - prob) / sampled);
        System.out.printf("known site: %d objects of %d bytes, p = %.4f, %.0f samples expected;"
                        + " estimate weighs %.1f samples, at least %.0f of %d entries, so each"
                        + " stands for at most %.1f samples (thinning level ~%.1f); sigma %.1f%%%n",
                count, size, prob, sampled, weight, knownEntriesAtLeast, tracking.entries(),
                perEntry, Math.log(perEntry) / Math.log(2), 100 * sigma);
        if (perEntry < 2) p.fail("the known site's samples were never thinned: no stress");

        long truth = count * size;
        p.assertNear(KNOWN + " inuse_space", p.sum("inuse_space", KNOWN), truth,
                4 * sigma * truth);
    }

    /** ChurnPayload classes the JVM logged as unloaded. */
    static long classesUnloaded(AgentRunner.Result r) throws Exception {
        Path log = r.file(UNLOAD_LOG);
        if (!Files.isRegularFile(log)) r.fail("no " + UNLOAD_LOG);
        Pattern unloading = Pattern.compile("unloading class ChurnPayload\\b");
        try (var lines = Files.lines(log)) {
            return lines.filter(l -> unloading.matcher(l).find()).count();
        }
    }
}
