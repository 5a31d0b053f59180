/*
 * LiveProfile: what the live-heap tests read from a heapsampler profile and from a run's
 * output, on top of heapsampler.Pprof: the live comments parsed into numbers, per-site
 * sums, the residual pseudo-site, the agent's weak-ref accounting line, the heap figure
 * LiveWorkload printed, and the sampling math the tolerances come from.
 *
 * A site (LiveProfile.Site) is a workload method and the class it allocates, e.g.
 * "LiveWorkload.retainA" and "byte[]": the samples whose stack contains that frame and
 * whose leaf is that class.
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

public final class LiveProfile {
    /** The pseudo-function of the residual sample (live_scale=residual). */
    public static final String RESIDUAL_SITE = "[heap not attributed to samples]";

    /** "gc: <name>; heap used after last GC: [unknown, ]<N> bytes (source <source>)" */
    public static final class GcComment {
        private final String gc;
        private final boolean heapKnown;
        private final long heapBytes;
        private final String source;

        public GcComment(String gc, boolean heapKnown, long heapBytes, String source) {
            this.gc = gc;
            this.heapKnown = heapKnown;
            this.heapBytes = heapBytes;
            this.source = source;
        }

        public String gc() {
            return gc;
        }

        public boolean heapKnown() {
            return heapKnown;
        }

        public long heapBytes() {
            return heapBytes;
        }

        public String source() {
            return source;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof GcComment)) return false;
            GcComment other = (GcComment) o;
            return java.util.Objects.equals(gc, other.gc) && heapKnown == other.heapKnown && heapBytes == other.heapBytes && java.util.Objects.equals(source, other.source);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(gc, heapKnown, heapBytes, source);
        }

        @Override
        public String toString() {
            return "GcComment[" + "gc=" + gc + ", " + "heapKnown=" + heapKnown + ", " + "heapBytes=" + heapBytes + ", " + "source=" + source + "]";
        }
    }

    /** "inuse: as of the last GC (epoch E); unbiased live estimate X bytes, Y objects;
     *  live_scale=M factor F; R bytes not attributed to samples[ (heap unknown...)]" */
    public static final class InuseComment {
        private final long epoch;
        private final long rawBytes;
        private final long rawObjects;
        private final String mode;
        private final double factor;
        private final long residualBytes;
        private final boolean unscaledNote;

        public InuseComment(long epoch, long rawBytes, long rawObjects, String mode, double factor, long residualBytes, boolean unscaledNote) {
            this.epoch = epoch;
            this.rawBytes = rawBytes;
            this.rawObjects = rawObjects;
            this.mode = mode;
            this.factor = factor;
            this.residualBytes = residualBytes;
            this.unscaledNote = unscaledNote;
        }

        public long epoch() {
            return epoch;
        }

        public long rawBytes() {
            return rawBytes;
        }

        public long rawObjects() {
            return rawObjects;
        }

        public String mode() {
            return mode;
        }

        public double factor() {
            return factor;
        }

        public long residualBytes() {
            return residualBytes;
        }

        public boolean unscaledNote() {
            return unscaledNote;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof InuseComment)) return false;
            InuseComment other = (InuseComment) o;
            return epoch == other.epoch && rawBytes == other.rawBytes && rawObjects == other.rawObjects && java.util.Objects.equals(mode, other.mode) && Double.compare(factor, other.factor) == 0 && residualBytes == other.residualBytes && unscaledNote == other.unscaledNote;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(epoch, rawBytes, rawObjects, mode, factor, residualBytes, unscaledNote);
        }

        @Override
        public String toString() {
            return "InuseComment[" + "epoch=" + epoch + ", " + "rawBytes=" + rawBytes + ", " + "rawObjects=" + rawObjects + ", " + "mode=" + mode + ", " + "factor=" + factor + ", " + "residualBytes=" + residualBytes + ", " + "unscaledNote=" + unscaledNote + "]";
        }
    }

    /** "live tracking: N entries, thinning level L (...)" */
    public static final class TrackingComment {
        private final long entries;
        private final int level;

        public TrackingComment(long entries, int level) {
            this.entries = entries;
            this.level = level;
        }

        public long entries() {
            return entries;
        }

        public int level() {
            return level;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof TrackingComment)) return false;
            TrackingComment other = (TrackingComment) o;
            return entries == other.entries && level == other.level;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(entries, level);
        }

        @Override
        public String toString() {
            return "TrackingComment[" + "entries=" + entries + ", " + "level=" + level + "]";
        }
    }

    /** "weak refs: A created, B deleted, C tracked at exit; D deleted after release;
     *  E samples left untracked" (stderr, log=info). */
    public static final class WeakRefs {
        private final long created;
        private final long deleted;
        private final long trackedAtExit;
        private final long deletedAfterRelease;
        private final long untracked;

        public WeakRefs(long created, long deleted, long trackedAtExit, long deletedAfterRelease, long untracked) {
            this.created = created;
            this.deleted = deleted;
            this.trackedAtExit = trackedAtExit;
            this.deletedAfterRelease = deletedAfterRelease;
            this.untracked = untracked;
        }

        public long created() {
            return created;
        }

        public long deleted() {
            return deleted;
        }

        public long trackedAtExit() {
            return trackedAtExit;
        }

        public long deletedAfterRelease() {
            return deletedAfterRelease;
        }

        public long untracked() {
            return untracked;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof WeakRefs)) return false;
            WeakRefs other = (WeakRefs) o;
            return created == other.created && deleted == other.deleted && trackedAtExit == other.trackedAtExit && deletedAfterRelease == other.deletedAfterRelease && untracked == other.untracked;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(created, deleted, trackedAtExit, deletedAfterRelease, untracked);
        }

        @Override
        public String toString() {
            return "WeakRefs[" + "created=" + created + ", " + "deleted=" + deleted + ", " + "trackedAtExit=" + trackedAtExit + ", " + "deletedAfterRelease=" + deletedAfterRelease + ", " + "untracked=" + untracked + "]";
        }

        /** No reference leaked: every one created was deleted by the end. */
        public void assertBalanced(AgentRunner.Result r) {
            if (created - deleted != trackedAtExit) {
                r.fail("weak refs: created - deleted = " + (created - deleted)
                        + " but " + trackedAtExit + " were tracked at exit");
            }
            if (deletedAfterRelease != created) {
                r.fail("weak refs: " + created + " created but " + deletedAfterRelease
                        + " deleted after the release at exit (leak)");
            }
        }
    }

    private static final Pattern GC = Pattern.compile(
            "gc: (.+); heap used after last GC: (unknown, )?(\\d+) bytes \\(source (\\w+)\\)");
    private static final Pattern INUSE = Pattern.compile(
            "inuse: as of the last GC \\(epoch (\\d+)\\); unbiased live estimate (\\d+) bytes, "
            + "(\\d+) objects; live_scale=(\\w+) factor ([0-9.]+); (\\d+) bytes not attributed "
            + "to samples(.*)");
    private static final Pattern TRACKING = Pattern.compile(
            "live tracking: (\\d+) entries .*?, thinning level (\\d+) .*");
    private static final Pattern WEAK_REFS = Pattern.compile(
            "weak refs: (\\d+) created .*?, (\\d+) deleted while running .*?, (\\d+) still held at "
            + "exit .*?; (\\d+) deleted in all .*?; (\\d+) samples left untracked");

    public final Pprof pprof;
    private final AgentRunner.Result run;

    private LiveProfile(Pprof pprof, AgentRunner.Result run) {
        this.pprof = pprof;
        this.run = run;
    }

    /** Reads and validates the profile a run wrote. */
    public static LiveProfile read(AgentRunner.Result run, String fileName) throws IOException {
        Path file = run.file(fileName);
        if (!java.nio.file.Files.isRegularFile(file)) run.fail("no profile " + file);
        Pprof p = Pprof.read(file);
        try {
            p.validate();
        } catch (AssertionError e) {
            run.fail(e.getMessage());
        }
        System.out.println("profile " + file + ":\n" + p.summary(12));
        return new LiveProfile(p, run);
    }

    /** Fails the run with the message and the profile's header. */
    public void fail(String message) {
        run.fail(message + "\nprofile comments: " + String.join("\n  ", pprof.comments));
    }

    // ---- Comments ---------------------------------------------------------------------------

    /** The one comment starting with prefix; fails if there is none or several. */
    public String comment(String prefix) {
        List<String> found = commentsStartingWith(prefix);
        if (found.size() != 1) {
            fail("expected one comment starting with \"" + prefix + "\", found " + found.size());
        }
        return found.get(0);
    }

    public List<String> commentsStartingWith(String prefix) {
        return pprof.comments.stream().filter(c -> c.startsWith(prefix))
                .collect(Collectors.toList());
    }

    public GcComment gcComment() {
        Matcher m = match(GC, comment("gc: "));
        return new GcComment(m.group(1), m.group(2) == null, Long.parseLong(m.group(3)),
                m.group(4));
    }

    public InuseComment inuseComment() {
        Matcher m = match(INUSE, comment("inuse: "));
        return new InuseComment(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)), m.group(4), Double.parseDouble(m.group(5)),
                Long.parseLong(m.group(6)), m.group(7).contains("heap unknown"));
    }

    public TrackingComment trackingComment() {
        Matcher m = match(TRACKING, comment("live tracking: "));
        return new TrackingComment(Long.parseLong(m.group(1)), Integer.parseInt(m.group(2)));
    }

    private Matcher match(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.matches()) fail("comment \"" + text + "\" does not match " + pattern);
        return m;
    }

    /** The weak-ref line of a run at log=info. */
    public static WeakRefs weakRefs(AgentRunner.Result r) {
        Matcher m = WEAK_REFS.matcher(r.assertAgentLine("weak refs: "));
        if (!m.find()) r.fail("the weak-ref line does not match " + WEAK_REFS);
        return new WeakRefs(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
                Long.parseLong(m.group(5)));
    }

    /**
     * The heap used after the last GC as LiveWorkload read it from GcInfo right after its
     * final System.gc() (its LiveWorkload.HEAP_LINE on stdout).
     */
    public static long workloadHeapAfterGc(AgentRunner.Result r) {
        for (String line : r.stdout.split("\n")) {
            if (!line.startsWith(LiveWorkload.HEAP_LINE)) continue;
            for (String field : line.substring(LiveWorkload.HEAP_LINE.length()).split(" ")) {
                if (field.startsWith("gcinfo=")) {
                    long bytes = Long.parseLong(field.substring("gcinfo=".length()));
                    if (bytes <= 0) r.fail("the program read no heap figure");
                    return bytes;
                }
            }
        }
        r.fail("the program printed no \"" + LiveWorkload.HEAP_LINE + "\" line");
        return 0;
    }

    // ---- Sites ------------------------------------------------------------------------------

    /**
     * An allocation site: samples whose stack contains the frame (e.g.
     * "LiveWorkload.retainA") and whose leaf is the allocated class (e.g. "byte[]"). The
     * class matters: the JVM may allocate objects of its own (a class name String while
     * loading a class, say) with a workload's frame on top of the stack.
     */
    public static final class Site {
        private final String frame;
        private final String leaf;

        public Site(String frame, String leaf) {
            this.frame = frame;
            this.leaf = leaf;
        }

        public String frame() {
            return frame;
        }

        public String leaf() {
            return leaf;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Site)) return false;
            Site other = (Site) o;
            return java.util.Objects.equals(frame, other.frame) && java.util.Objects.equals(leaf, other.leaf);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(frame, leaf);
        }

        @Override
        public String toString() {
            return frame + " (" + leaf + ")";
        }
    }

    public boolean matches(Pprof.Sample s, Site site) {
        return pprof.leafName(s).equals(site.leaf()) && pprof.hasFrame(s, site.frame());
    }

    /** Sum of a value over the site's samples. */
    public long sum(String type, Site site) {
        return pprof.sum(type, s -> matches(s, site));
    }

    /** The total of a value over all samples (the residual pseudo-site included). */
    public long total(String type) {
        return pprof.total(type);
    }

    /** inuse_space of the residual pseudo-site, -1 if there is no such sample. */
    public long residualBytes() {
        List<Pprof.Sample> residual = pprof.samples.stream()
                .filter(s -> pprof.leafName(s).equals(RESIDUAL_SITE)).collect(Collectors.toList());
        if (residual.size() > 1) fail(residual.size() + " residual samples");
        if (residual.isEmpty()) return -1;
        Pprof.Sample s = residual.get(0);
        if (s.locationIds().size() != 1) fail("the residual sample has a stack: " + pprof.frames(s));
        for (String type : List.of("alloc_objects", "alloc_space", "inuse_objects")) {
            if (s.value(pprof.typeIndex(type)) != 0) fail("the residual sample has " + type);
        }
        return s.value(pprof.typeIndex("inuse_space"));
    }

    /**
     * The size of the objects allocated at a site (the samples' "bytes" label): every
     * site of these workloads allocates objects of one size, so there must be one.
     */
    public long objectSize(Site site) {
        Map<Long, Long> sizes = new TreeMap<>();
        for (Pprof.Sample s : pprof.samples) {
            if (!matches(s, site)) continue;
            Long size = Pprof.numLabel(s, "bytes");
            sizes.merge(size == null ? -1L : size, 1L, Long::sum);
        }
        if (sizes.size() != 1 || sizes.containsKey(-1L)) {
            fail("site " + site + ": expected one object size label, got " + sizes);
        }
        return sizes.keySet().iterator().next();
    }

    // ---- Sampling math ----------------------------------------------------------------------

    /** The JVM samples an object of size bytes with this probability (JEP 331). */
    public static double sampleProbability(long size, long interval) {
        return interval <= 0 ? 1.0 : -Math.expm1(-(double) size / interval);
    }

    /**
     * Relative standard deviation of the unbiased estimate of n objects of one size when
     * every sample is tracked: the sampled count K ~ Binomial(n, p) and the estimate is
     * K/p objects, so sigma/mean = sqrt(n p (1-p)) / (n p) = sqrt((1-p) / (n p)).
     */
    public static double relativeSigma(long n, long size, long interval) {
        double p = sampleProbability(size, interval);
        return Math.sqrt((1 - p) / (n * p));
    }

    /**
     * The relative error JDK 11's sampler itself adds to a site's estimate, beyond the
     * sampling noise: its JEP 331 bookkeeping (JDK-8356372, in the form JDK 11 has) over-
     * samples byte[1000] next to small objects at 8 KiB by 8-13 % (measured on 11.0.24,
     * LiveAccuracyTest and HeapSourceNoneTest); 0 on JDK 17 and later, where these tests
     * hold to 4 sigma. The agent says so in the profile (its "sampler bias" comment).
     */
    public static double samplerBiasBound() {
        return Runtime.version().feature() < 17 ? 0.20 : 0.0;
    }

    /** |estimate - truth| <= allowed, or fail with both numbers and the allowance. */
    public void assertNear(String what, long estimate, long truth, double allowed) {
        double error = estimate - truth;
        String line = String.format("%s: estimate %d, truth %d, error %+.2f%% (allowed +-%.2f%%)",
                what, estimate, truth, 100.0 * error / truth, 100.0 * allowed / truth);
        System.out.println(line);
        if (Math.abs(error) > allowed) fail(line);
    }
}
