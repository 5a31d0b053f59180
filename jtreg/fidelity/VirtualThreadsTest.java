/*
 * @test
 * @summary threads=true under virtual threads: 10,000 virtual threads named vt-N, their few
 *          carriers switching between them at every allocation, every fourth pinned: every
 *          sampled allocation of a virtual thread carries its own name (never its carrier's,
 *          never another virtual thread's); unnamed virtual threads are labelled as such
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

    public static void main(String[] args) throws Exception {
        // rate=0: every sample the JVM takes is checked; 64k: byte[4096 + 8 i] is sampled with
        // probability 6-50 %, so about 30,000 samples spread over the threads.
        AgentRunner.Result r = AgentRunner.withAgent("threads=true,rate=0,interval=64k,file=vt.pb.gz")
                .label("virtual-threads").timeout(Duration.ofSeconds(240)).jvmFlags("-Xmx512m")
                .run("VirtualThreadNames", Integer.toString(THREADS), "8");
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
        if (named < THREADS / 2) r.fail("too few threads sampled to judge: " + named);
        if (unnamed == 0) r.fail("no sample of the unnamed virtual threads");
        if (labels.size() < THREADS / 2) r.fail("only " + labels.size() + " distinct labels");
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
