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
    static final long INTERVAL = 32 * 1024;
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
                .withAgent("interval=" + INTERVAL + ",rate=0,track=" + TRACK + ",log=info,file=" + PROFILE)
                .jvmFlags("-Xmx768m", "-Xlog:class+unload=info:file=" + UNLOAD_LOG)
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
        checkKnownSite(p, tracking);
    }

    /**
     * The site that retains a known amount all along: n objects, each sampled by the JVM
     * with probability p. Its samples were all taken before the churn (paced, so none was
     * lost to a full table), and a sweep then thinned them to one level.
     *
     * Thinning: a table entry of level L stands for 2^L samples (it was kept with
     * probability 2^-L). Every later sweep that thins moves all of the site's entries to
     * the same new level, so at exit each of its M entries stands for 2^L samples and the
     * site's weight in JVM samples, W = inuse_objects * p, is exactly M * 2^L (up to the
     * rounding of inuse_objects to whole objects).
     *
     * The profile gives W and the table's entry count E, not L (the comment's level is the
     * current one, which falls again when the churn stops, while entries keep theirs). The
     * site has at most E' = E - (other live buckets) entries, one at least for each of
     * those. If fewer than half the entries are not the site's (the others are a few JDK
     * objects and samples taken after the last GC), M > E'/2, so L = ceil(log2(W / E'))
     * exactly, and W / 2^L must be a whole number: if not, the weights were not scaled
     * as thinning requires.
     *
     * Variance: the JVM's sampling gives (1 - p) / (n p) relative; thinning keeps each
     * sample with probability 2^-L and counts it 2^L times, adding (2^L - 1) / (n p). So
     * sigma_rel = sqrt((2^L - p) / (n p)), and the estimate must be within four sigma. With
     * 256 entries that is loose (L reaches 6 to 8 here: sigma 18 % to 36 %), which is the
     * precision such a small table leaves a site.
     */
    static void checkKnownSite(LiveProfile p, LiveProfile.TrackingComment tracking) {
        long count = ((long) KNOWN_MIB << 20) / ChurnWorkload.KNOWN_LENGTH;
        long size = p.objectSize(KNOWN);
        double prob = LiveProfile.sampleProbability(size, INTERVAL);
        int objectsIndex = p.pprof.typeIndex("inuse_objects");
        int allocIndex = p.pprof.typeIndex("alloc_objects");
        // The site's samples: one per bucket, or several when its in-use is split by GC age
        // (an age sample's alloc equals its in-use; the bucket's own sample keeps the rest of
        // its allocation and no in-use), so in-use and alloc are compared over the site.
        long inuseObjects = 0;
        long allocObjects = 0;
        int buckets = 0; /* samples with in-use: each is rounded on its own */
        int otherBuckets = 0;
        for (Pprof.Sample s : p.pprof.samples) {
            if (p.matches(s, KNOWN)) {
                allocObjects += s.value(allocIndex);
                if (s.value(objectsIndex) == 0) continue;
                inuseObjects += s.value(objectsIndex);
                buckets++;
            } else if (s.value(objectsIndex) != 0) {
                otherBuckets++;
            }
        }
        // A site capped at its allocation (in-use <= alloc) is no longer a whole number of
        // entries: its weight is left out (it still holds its entries).
        int cappedBuckets = buckets > 0 && inuseObjects == allocObjects ? buckets : 0;
        if (cappedBuckets > 0) buckets = 0;
        double weight = buckets > 0 ? inuseObjects * prob : 0;
        long entriesAtMost = tracking.entries() - otherBuckets;
        if (buckets + cappedBuckets == 0 || entriesAtMost < 1) p.fail("the known site has no live entries");
        // Each sample's inuse_objects is rounded to a whole object: W is off by < p each. The
        // site's untracked samples (no room in the table) are extrapolated by a ratio, which
        // moves W off a whole number by a little more: 1 % of W still catches weights that
        // thinning forgot to scale (off by a factor of 2 or more).
        double slack = Math.max(buckets * prob, 0.01 * weight) + 1e-6;
        int level = 0;
        while (weight - entriesAtMost * Math.scalb(1.0, level) > slack) level++;
        double perEntry = Math.scalb(1.0, level);
        double entries = weight / perEntry;
        System.out.printf("known site: %d objects of %d bytes, p = %.4f, %.0f samples expected;"
                        + " in the profile it weighs %.2f samples (%d bucket(s)), in at most %d of"
                        + " the table's %d entries: level %d, %.3f entries%n",
                count, size, prob, count * prob, weight, buckets, entriesAtMost,
                tracking.entries(), level, entries);
        if (buckets == 0) {
            level = tracking.level(); // every bucket capped: nothing left to count entries in
            perEntry = Math.scalb(1.0, level);
        } else if (Math.abs(entries - Math.rint(entries)) * perEntry > slack) {
            p.fail("the known site weighs " + weight + " samples: not a whole number of"
                    + " entries of 2^" + level + " samples");
        }
        // A capped site's in-use is its allocation estimate, which tells nothing of the level
        // its entries had (thinning may already have raised its estimate past the cap).
        if (level == 0 && cappedBuckets == 0) p.fail("the known site's samples were never thinned: no stress");

        double sigma = Math.sqrt((perEntry - prob) / (count * prob));
        long truth = count * size;
        p.assertNear(KNOWN + " inuse_space (sigma " + String.format("%.1f%%", 100 * sigma) + ")",
                p.sum("inuse_space", KNOWN), truth, 4 * sigma * truth);
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
