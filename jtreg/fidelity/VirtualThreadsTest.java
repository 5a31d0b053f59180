/*
 * @test
 * @summary threads=true under virtual threads: 10,000 virtual threads named vt-N, their few
 *          carriers switching between them at every allocation, every fourth pinned: every
 *          sampled allocation of a virtual thread carries its own name (never its carrier's,
 *          never another virtual thread's), every sample kept (rate=0) and at the defaults
 *          (the rate cap, whose state, like the interval a sample was drawn at, is the
 *          carrier's); unnamed virtual threads are labelled as such; at the defaults the
 *          arrays' estimated bytes match what the threads allocated (JDK 25+: older JDKs'
 *          sampler is biased on large arrays, JDK-8356372)
 * @requires jdk.version.major >= 21
 * @library /lib
 * @build VirtualThreadNames
 * @run driver VirtualThreadsTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

public class VirtualThreadsTest {
    static final int THREADS = 10_000;

    static final int ARRAYS = 8;

    public static void main(String[] args) throws Exception {
        // rate=0: every sample the JVM takes is checked; 64k: byte[4096 + 8 i] is sampled with
        // probability 6-50 %, so about 30,000 samples spread over the threads.
        checkLabels("threads=true,rate=0,interval=64k", THREADS / 2, true);
        // The defaults: the rate cap keeps about 1,000 samples a second of the JVM's ~2,000
        // at 512k, its interval adapting; fewer threads are sampled at all, and the unnamed
        // ones' 1.2 MB get about 2 samples, maybe none.
        Pprof defaults = checkLabels("threads=true", THREADS / 20, false);
        if (Runtime.version().feature() >= 25) checkEstimate(defaults);
        else System.out.println("estimates not checked: JDK-8356372 biases this JDK's sampler");
    }

    /** Runs the workload with `options` and checks every site's thread label. */
    static Pprof checkLabels(String options, int minThreads, boolean unnamedSampled) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(options + ",file=vt.pb.gz")
                .label("virtual-threads").timeout(Duration.ofSeconds(240)).jvmFlags("-Xmx512m")
                .run("VirtualThreadNames", Integer.toString(THREADS), Integer.toString(ARRAYS));
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("VirtualThreadNames: done");
        Pprof p = Pprof.read(r.file("vt.pb.gz")).validate();

        long named = 0, unnamed = 0, wrong = 0; // sites: one per thread and label
        Set<String> labels = new HashSet<>();
        StringBuilder examples = new StringBuilder();
        for (Pprof.Sample s : p.samples) {
            if (!p.stackNames(s).contains("VirtualThreadNames.allocate")) continue;
            Long bytes = Pprof.numLabel(s, "bytes");
            String thread = Pprof.strLabel(s, "thread");
            if (bytes == null) r.fail("a sample without its object size: " + p.stackNames(s));
            String expected = expectedName(bytes);
            if (expected == null) continue; // another allocation of that method (its lock)
            if (expected.startsWith("[")) unnamed++;
            else named++;
            labels.add(thread);
            if (!expected.equals(thread)) {
                wrong++;
                if (examples.length() < 600)
                    examples.append(bytes).append(" bytes labelled ").append(thread)
                            .append(", allocated by ").append(expected).append("; ");
            }
        }
        System.out.printf("sites of named virtual threads: %d, of unnamed: %d, distinct labels: %d, "
                + "wrong: %d%n", named, unnamed, labels.size(), wrong);
        if (wrong > 0) r.fail(wrong + " sites carry another thread's name: " + examples);
        if (named < minThreads) r.fail("too few threads sampled to judge: " + named);
        if (unnamedSampled && unnamed == 0) r.fail("no sample of the unnamed virtual threads");
        if (labels.size() < minThreads) r.fail("only " + labels.size() + " distinct labels");
        return p;
    }

    /**
     * The arrays' alloc_space against the bytes the threads allocated, within 4 standard
     * errors. The JVM samples about 3.5 GB / 512 KiB = 6,700 of them and the cap keeps n (the
     * profile's samples recorded, nearly all of them the arrays'); the cap's weights 1/p
     * average at most 2 (it keeps at least half of what the JVM offers: the interval adapts
     * to offer about twice the rate), so the relative standard error is below sqrt(2 / n):
     * 2.9 % at n = 2,300.
     */
    static void checkEstimate(Pprof p) {
        long recorded = 0;
        for (String c : p.comments)
            if (c.startsWith("samples recorded: ")) recorded = Long.parseLong(c.replaceAll("samples recorded: (\\d+).*", "$1"));
        int space = p.typeIndex("alloc_space");
        long estimated = 0;
        for (Pprof.Sample s : p.samples) {
            Long bytes = Pprof.numLabel(s, "bytes");
            if (p.stackNames(s).contains("VirtualThreadNames.allocate") && bytes != null && expectedName(bytes) != null)
                estimated += s.value(space);
        }
        long truth = (long) ARRAYS * VirtualThreadNames.UNNAMED * alignedSize(VirtualThreadNames.UNNAMED_LENGTH);
        for (int i = 0; i < THREADS; i++) truth += (long) ARRAYS * alignedSize(VirtualThreadNames.lengthOf(i));
        System.out.printf("defaults: %d samples recorded; arrays estimated %d bytes, allocated %d (%.3f)%n",
                recorded, estimated, truth, (double) estimated / truth);
        if (recorded < 1000) throw new AssertionError("too few samples to judge the estimate: " + recorded);
        double tolerance = 4 * Math.sqrt(2.0 / recorded);
        if (Math.abs((double) estimated / truth - 1) > tolerance)
            throw new AssertionError("arrays estimated " + estimated + " bytes, allocated " + truth
                    + ": off by more than " + tolerance);
    }

    /** The label the thread that allocates objects of this size must carry; null if none does. */
    static String expectedName(long bytes) {
        if (bytes == alignedSize(VirtualThreadNames.UNNAMED_LENGTH)) return "[unnamed virtual thread]";
        long index = (bytes - alignedSize(VirtualThreadNames.BASE)) / 8;
        if (index < 0 || index >= THREADS || alignedSize(VirtualThreadNames.lengthOf((int) index)) != bytes)
            return null;
        return "vt-" + index;
    }

    /** A byte[length]'s size in the heap: a 16-byte header, rounded up to 8 bytes. */
    static long alignedSize(int length) {
        return (16 + length + 7) / 8 * 8;
    }
}
