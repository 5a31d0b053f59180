/*
 * @test id=G1
 * @summary In-use estimates under G1: retained sites (humongous arrays included) match
 *          what the program keeps, what dropped sites allocated is not in use, and the
 *          profile's total in-use (residual pseudo-site included) matches the heap the JVM
 *          reports after the last GC
 * @requires vm.gc.G1
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest G1 residual
 */
/*
 * @test id=G1-proportional
 * @summary live_scale=proportional under G1: every site is scaled by heap / estimate and
 *          the sites add up to the heap figure exactly
 * @requires vm.gc.G1
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest G1 proportional
 */
/*
 * @test id=Parallel
 * @summary In-use estimates under the Parallel collector
 * @requires vm.gc.Parallel
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest Parallel residual
 */
/*
 * @test id=Serial
 * @summary In-use estimates under the Serial collector
 * @requires vm.gc.Serial
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest Serial residual
 */
/*
 * @test id=Z
 * @summary In-use estimates under ZGC (generational on JDK 24 and later)
 * @requires vm.gc.Z
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest Z residual
 */
/*
 * @test id=Z-generational
 * @summary In-use estimates under generational ZGC where it is an option (JDK 21-23,
 *          -XX:+ZGenerational; JDK 24+ has no other ZGC, so id=Z covers it there)
 * @requires vm.gc.Z & jdk.version.major >= 21 & jdk.version.major <= 23
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest Z-generational residual
 */
/*
 * @test id=Shenandoah
 * @summary In-use estimates under Shenandoah
 * @requires vm.gc.Shenandoah
 * @library /lib
 * @build LiveWorkload
 * @run driver LiveAccuracyTest Shenandoah residual
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.List;

public class LiveAccuracyTest {
    /**
     * Small enough for tight bounds (see relativeSigma): at 8 KiB, retainA's 40,000
     * byte[1000] (1016 bytes each) are sampled with p = 1 - exp(-1016/8192) = 0.117, about
     * 4,660 samples, sigma = sqrt((1-p)/(n p)) = 1.4 %; retainB's 440,000 48-byte Nodes with
     * p = 0.0058, about 2,570 samples, sigma = 2.0 %; retainH's byte[1,100,000] with
     * p = 1 - exp(-134) = 1: every one is sampled and the estimate is exact.
     */
    static final long INTERVAL = 8 * 1024;
    /** Four sigma: a correct agent fails a site check about once in 16,000 runs. */
    static final double SIGMAS = 4.0;
    /** What rounding may add per site (each bucket is rounded to whole bytes). */
    static final long ROUNDING = 64;
    static final String PROFILE = "live.pb.gz";

    static final String NODE = "LiveWorkload$Node";

    /** A retaining site of LiveWorkload: how many objects of what size it keeps. */
    static final class Retained {
        private final LiveProfile.Site site;
        private final long count;
        private final long objectSize;

        public Retained(LiveProfile.Site site, long count, long objectSize) {
            this.site = site;
            this.count = count;
            this.objectSize = objectSize;
        }

        public LiveProfile.Site site() {
            return site;
        }

        public long count() {
            return count;
        }

        public long objectSize() {
            return objectSize;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Retained)) return false;
            Retained other = (Retained) o;
            return java.util.Objects.equals(site, other.site) && count == other.count && objectSize == other.objectSize;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(site, count, objectSize);
        }

        @Override
        public String toString() {
            return "Retained[" + "site=" + site + ", " + "count=" + count + ", " + "objectSize=" + objectSize + "]";
        }
    }

    static final Retained RETAIN_A = new Retained(
            new LiveProfile.Site("LiveWorkload.retainA", "byte[]"), LiveWorkload.A_COUNT,
            arraySize(LiveWorkload.A_LENGTH));
    static final Retained RETAIN_B = new Retained(
            new LiveProfile.Site("LiveWorkload.retainB", NODE), LiveWorkload.B_COUNT, 48);
    static final Retained RETAIN_H = new Retained(
            new LiveProfile.Site("LiveWorkload.retainH", "byte[]"), LiveWorkload.H_COUNT,
            arraySize(LiveWorkload.H_LENGTH));
    static final List<LiveProfile.Site> DROP_SITES = List.of(
            new LiveProfile.Site("LiveWorkload.dropA", "byte[]"),
            new LiveProfile.Site("LiveWorkload.dropB", NODE));

    public static void main(String[] args) throws Exception {
        String gc = args[0];
        boolean proportional = args[1].equals("proportional");
        boolean humongous = gc.equals("G1");

        List<String> flags = new ArrayList<>(List.of(gc.equals("Z-generational")
                ? "-XX:+UseZGC" : "-XX:+Use" + gc + "GC", "-Xmx512m"));
        if (gc.equals("Z-generational")) flags.add("-XX:+ZGenerational");
        if (humongous) flags.add("-XX:G1HeapRegionSize=1m"); // byte[1,100,000] is humongous
        AgentRunner.Result r = AgentRunner
                .withAgent("interval=" + INTERVAL + ",rate=0,log=info,file=" + PROFILE
                        + ",live_scale=" + args[1])
                .jvmFlags(flags.toArray(new String[0])).label(gc + "-" + args[1])
                .run("LiveWorkload", humongous ? "humongous" : "plain");
        r.assertNoCrash().assertExitCode(0);
        long jvmHeap = LiveProfile.workloadHeapAfterGc(r);

        LiveProfile p = LiveProfile.read(r, PROFILE);
        checkHeader(p, r, gc, jvmHeap);
        List<Retained> sites = new ArrayList<>(List.of(RETAIN_A, RETAIN_B));
        if (humongous) sites.add(RETAIN_H);
        if (proportional) {
            checkProportional(p, sites);
        } else {
            checkResidual(p, sites);
        }
        for (LiveProfile.Site drop : DROP_SITES) checkDropped(p, drop);

        // Whatever the mode, the profile's in-use total is the heap the JVM reports.
        long total = p.total("inuse_space");
        p.assertNear("total inuse_space vs the JVM's heap used after the last GC", total,
                jvmHeap, 0.10 * jvmHeap);
    }

    /** Header of every live profile: sample types, the collector, the heap figure. */
    static void checkHeader(LiveProfile p, AgentRunner.Result r, String gc, long jvmHeap) {
        List<Pprof.ValueType> types = List.of(new Pprof.ValueType("alloc_objects", "count"),
                new Pprof.ValueType("alloc_space", "bytes"),
                new Pprof.ValueType("inuse_objects", "count"),
                new Pprof.ValueType("inuse_space", "bytes"));
        if (!p.pprof.sampleTypes.equals(types)) p.fail("sample types " + p.pprof.sampleTypes);
        if (!p.pprof.defaultSampleType.equals("inuse_space")) {
            p.fail("default sample type is " + p.pprof.defaultSampleType);
        }
        LiveProfile.GcComment g = p.gcComment();
        String expected = expectedGcName(gc);
        if (!g.gc().equals(expected)) p.fail("gc: comment names " + g.gc() + ", not " + expected);
        if (!g.heapKnown() || !(g.source().equals("vmstructs") || g.source().equals("gcinfo"))) {
            p.fail("no heap figure from vmstructs or gcinfo: " + g);
        }
        System.out.println("collector " + g.gc() + ", heap source " + g.source() + ": "
                + g.heapBytes() + " bytes; the program read " + jvmHeap + " bytes");
        p.assertNear("the agent's heap figure vs the JVM's", g.heapBytes(), jvmHeap,
                0.10 * jvmHeap);

        // Every sample of the run was tracked at full precision, and none leaked.
        LiveProfile.TrackingComment t = p.trackingComment();
        if (t.level() != 0) p.fail("thinning level " + t.level() + ": the table is too small");
        LiveProfile.WeakRefs refs = LiveProfile.weakRefs(r);
        refs.assertBalanced(r);
        if (refs.untracked() != 0) r.fail(refs.untracked() + " samples left untracked");
        if (p.inuseComment().epoch() < 2) p.fail("fewer than two GCs seen");
    }

    /**
     * Residual mode: each site keeps its own unbiased estimate, which must be within four
     * sigma of what the program retains; everything in the heap beyond the sum of the
     * estimates is in the residual pseudo-site, give or take the rounding that capping each
     * site at its allocation moves there (under a byte per site at thinning level 0).
     */
    static void checkResidual(LiveProfile p, List<Retained> sites) {
        for (Retained site : sites) {
            checkRetained(p, site, 1.0);
        }
        LiveProfile.InuseComment in = p.inuseComment();
        LiveProfile.GcComment g = p.gcComment();
        if (!in.mode().equals("residual") || in.factor() != 1.0) p.fail("not residual: " + in);
        long expectedResidual = Math.max(0, g.heapBytes() - in.rawBytes());
        long residual = Math.max(0, p.residualBytes());
        long rounding = 1 + p.pprof.samples.size();
        if (Math.abs(residual - expectedResidual) > rounding || residual != in.residualBytes()) {
            p.fail("residual pseudo-site holds " + residual + " bytes; heap " + g.heapBytes()
                    + " - estimate " + in.rawBytes() + " = " + expectedResidual
                    + ", comment says " + in.residualBytes());
        }
        long total = p.total("inuse_space");
        long expectedTotal = Math.max(g.heapBytes(), in.rawBytes());
        if (Math.abs(total - expectedTotal) > 1) {
            p.fail("total inuse_space " + total + ", expected max(heap, estimate) = "
                    + expectedTotal);
        }
    }

    /**
     * Proportional mode: every site is its estimate times heap / sum of estimates, no
     * residual, and the sites add up to the heap figure exactly.
     */
    static void checkProportional(LiveProfile p, List<Retained> sites) {
        LiveProfile.InuseComment in = p.inuseComment();
        LiveProfile.GcComment g = p.gcComment();
        double factor = (double) g.heapBytes() / in.rawBytes();
        if (!in.mode().equals("proportional") || Math.abs(in.factor() - factor) > 6e-5) {
            p.fail("expected live_scale=proportional factor " + factor + ": " + in);
        }
        if (p.residualBytes() != -1 || in.residualBytes() != 0) p.fail("residual in proportional mode");
        if (p.total("inuse_space") != g.heapBytes()) {
            p.fail("sites add up to " + p.total("inuse_space") + ", not the heap figure "
                    + g.heapBytes());
        }
        System.out.printf("proportional factor %.4f%n", factor);
        for (Retained site : sites) {
            checkRetained(p, site, factor);
        }
    }

    /**
     * A retaining site: the object size is the one HotSpot uses, in-use (divided by the
     * scaling factor) is within four sigma of count * size, in objects and in bytes, and
     * equals the site's allocation estimate times the factor: every sample of a retained
     * object is still tracked (level 0) and alive.
     */
    static void checkRetained(LiveProfile p, Retained r, double factor) {
        long size = p.objectSize(r.site());
        if (size != r.objectSize()) {
            p.fail(r.site() + ": objects of " + size + " bytes, expected " + r.objectSize());
        }
        double sigma = LiveProfile.relativeSigma(r.count(), size, INTERVAL);
        long truthBytes = r.count() * size;
        long inuse = p.sum("inuse_space", r.site());
        long inuseObjects = p.sum("inuse_objects", r.site());
        double bound = Math.max(SIGMAS * sigma, LiveProfile.samplerBiasBound());
        p.assertNear(r.site() + " inuse_space / factor", Math.round(inuse / factor),
                truthBytes, bound * truthBytes + ROUNDING);
        p.assertNear(r.site() + " inuse_objects / factor", Math.round(inuseObjects / factor),
                r.count(), bound * r.count() + 1);
        long alloc = p.sum("alloc_space", r.site());
        long scaledAlloc = Math.round(alloc * factor);
        if (Math.abs(inuse - scaledAlloc) > ROUNDING + scaledAlloc / 1000) {
            p.fail(r.site() + ": inuse_space " + inuse + " but alloc_space * factor "
                    + scaledAlloc + ": retained samples were lost");
        }
    }

    /**
     * Garbage: allocated in quantity, nothing of it in use. The site is frame and class:
     * the JVM itself may allocate with a workload frame on top and keep that object (seen
     * once on JDK 25: a live String sampled at dropB's line).
     */
    static void checkDropped(LiveProfile p, LiveProfile.Site site) {
        long alloc = p.sum("alloc_space", site);
        long inuse = p.sum("inuse_space", site);
        long inuseObjects = p.sum("inuse_objects", site);
        System.out.println(site + ": alloc_space " + alloc + ", inuse_space " + inuse);
        if (alloc < LiveWorkload.DROP_BYTES / 2) p.fail(site + ": alloc_space only " + alloc);
        if (inuse != 0 || inuseObjects != 0) {
            p.fail(site + " dropped everything, yet inuse_space " + inuse + ", inuse_objects "
                    + inuseObjects);
        }
    }

    /** The collector's name in the profile's gc: comment. */
    static String expectedGcName(String gc) {
        if (gc.equals("Z-generational")) return "Z (generational)";
        if (gc.equals("Z")) {
            // JDK 21-23 have both ZGCs (non-generational by default); 24+ only generational.
            return Runtime.version().feature() >= 24 ? "Z (generational)" : "Z";
        }
        return gc;
    }

    /** Array of n bytes: 16-byte header (12 with compact headers), padded to 8. */
    static long arraySize(int n) {
        return (16 + n + 7) / 8 * 8;
    }
}
