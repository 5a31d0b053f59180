/*
 * @test
 * @summary Stacks in the allocation profile: the leaf pseudo-frame names the allocated
 *          class (byte[], a plain class, String[], a nested class, int[][]); then the
 *          allocating method with its name, signature, package-path filename and line;
 *          then its callers at their call lines. depth=3 keeps exactly three Java frames
 *          under a "[truncated]" root and counts the cut stacks; format=collapsed writes
 *          "root;...;method;class value" lines
 * @library /lib
 * @build AllocProfiles allocsites.FrameSites
 * @run driver FramesTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class FramesTest {
    static final String CLASS = "allocsites.FrameSites";
    static final String SLASHED = "allocsites/FrameSites";
    static final String FILENAME = "allocsites/FrameSites.java";
    /* 20 rounds of 1000 objects per site at a 4 KiB interval: from about 80 samples (the
     * 16-byte Outer$Inner) to 300; the chance that a site gets none is below e^-80. */
    static final String ROUNDS = "20";
    static final String SAMPLING = "interval=4k,rate=0"; // every site sampled: no rate cap

    /** One allocation site of FrameSites and what its samples must show. */
    static final class Site {
        private final String method;
        private final String signature;
        private final String marker;
        private final Set<String> leaves;

        public Site(String method, String signature, String marker, Set<String> leaves) {
            this.method = method;
            this.signature = signature;
            this.marker = marker;
            this.leaves = leaves;
        }

        public String method() {
            return method;
        }

        public String signature() {
            return signature;
        }

        public String marker() {
            return marker;
        }

        public Set<String> leaves() {
            return leaves;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Site)) return false;
            Site other = (Site) o;
            return java.util.Objects.equals(method, other.method) && java.util.Objects.equals(signature, other.signature) && java.util.Objects.equals(marker, other.marker) && java.util.Objects.equals(leaves, other.leaves);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(method, signature, marker, leaves);
        }

        @Override
        public String toString() {
            return "Site[" + "method=" + method + ", " + "signature=" + signature + ", " + "marker=" + marker + ", " + "leaves=" + leaves + "]";
        }

        String name() {
            return CLASS + "." + method;
        }

        String systemName() {
            return SLASHED + "." + method + signature;
        }
    }

    static final List<Site> SITES = List.of(
            new Site("allocateBytes", "(I)V", "bytes", Set.of("byte[]")),
            new Site("allocateFoos", "(I)Lallocsites/Foo;", "foos", Set.of("allocsites.Foo")),
            new Site("allocateStrings", "(ILjava/lang/String;)[Ljava/lang/Object;", "strings",
                    Set.of("java.lang.String[]")),
            new Site("allocateInners", "(J)V", "inners", Set.of("allocsites.Outer$Inner")),
            // new int[rows][5] allocates the outer int[][] and one int[] per row.
            new Site("allocateMatrices", "(II)[[I", "matrices", Set.of("int[][]", "int[]")));

    static Map<String, Integer> lines;

    public static void main(String[] args) throws Exception {
        lines = AllocProfiles.markedLines(AllocProfiles.testSource("allocsites/FrameSites.java"));
        fullStacks();
        truncatedStacks();
        collapsedStacks();
    }

    /** The default depth: whole stacks, from the class leaf down to main. */
    static void fullStacks() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(SAMPLING + ",file=frames.pb.gz")
                .label("full").run(CLASS, ROUNDS);
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("FrameSites: done");
        Pprof p = AllocProfiles.readProfile(r, "frames.pb.gz");
        System.out.println(p.summary(20));
        for (Site site : SITES) {
            List<Pprof.Sample> samples = samplesOf(p, site);
            Set<String> leaves = new TreeSet<>();
            for (Pprof.Sample s : samples) {
                List<Pprof.Frame> frames = p.frames(s);
                String where = site.method() + ": stack " + frames;
                check(frames.size() == 5, where + ": expected class, method, 3 callers");
                checkLeaf(frames.get(0), site, where);
                leaves.add(frames.get(0).name());
                checkAllocatingFrame(frames.get(1), site, where);
                checkCaller(frames.get(2), "middleCaller", "(I)J", "middle-calls-" + site.marker(),
                        where);
                checkCaller(frames.get(3), "outerCaller", "(I)V", "outer-calls-middle", where);
                checkCaller(frames.get(4), "main", "([Ljava/lang/String;)V", "main-calls-outer",
                        where);
                check(!AllocProfiles.isTruncated(p, s), where + ": truncated at the default depth");
            }
            check(leaves.equals(site.leaves()), site.method() + ": expected samples of "
                    + site.leaves() + ", got " + leaves);
        }
        AllocProfiles.SampleCounts counts = AllocProfiles.sampleCounts(p);
        check(counts.depth() == 1024 && counts.dropped() == 0,
                "unexpected counts in the samples comment: " + counts);
    }

    /** depth=3: the allocating method and two callers, then the "[truncated]" root. */
    static void truncatedStacks() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(SAMPLING + ",depth=3,file=depth3.pb.gz")
                .label("depth3").run(CLASS, ROUNDS);
        r.assertNoCrash().assertExitCode(0);
        // Most sampled bytes lost their roots: the dump says so once, naming the option.
        r.assertAgentLine("of sampled bytes have stacks deeper than depth=3");
        Pprof p = AllocProfiles.readProfile(r, "depth3.pb.gz");
        System.out.println(p.summary(20));
        for (Site site : SITES) {
            for (Pprof.Sample s : samplesOf(p, site)) {
                List<Pprof.Frame> frames = p.frames(s);
                String where = "depth=3, " + site.method() + ": stack " + frames;
                check(frames.size() == 5, where + ": expected class, 3 frames, [truncated]");
                checkLeaf(frames.get(0), site, where);
                checkAllocatingFrame(frames.get(1), site, where);
                checkCaller(frames.get(2), "middleCaller", "(I)J", "middle-calls-" + site.marker(),
                        where);
                checkCaller(frames.get(3), "outerCaller", "(I)V", "outer-calls-middle", where);
                Pprof.Frame root = frames.get(4);
                check(root.name().equals(AllocProfiles.TRUNCATED) && root.line() == 0
                        && root.filename().isEmpty(), where + ": root is not a [truncated] pseudo-frame");
            }
        }
        // Every stack of the run: at most 3 Java frames, and exactly 3 where it was cut.
        long cut = 0;
        for (Pprof.Sample s : p.samples) {
            int depth = AllocProfiles.javaFrames(p, s).size();
            boolean truncated = AllocProfiles.isTruncated(p, s);
            check(depth <= 3 && (!truncated || depth == 3),
                    "depth=3: stack with " + depth + " Java frames (truncated " + truncated + "): "
                    + p.frames(s));
            if (truncated) cut++;
        }
        AllocProfiles.SampleCounts counts = AllocProfiles.sampleCounts(p);
        check(counts.depth() == 3, "the samples comment does not say depth=3: " + counts);
        check(counts.truncated() > 0 && counts.truncated() <= counts.recorded(),
                "depth=3: expected 0 < truncated <= recorded in the comment: " + counts);
        check(cut > 0, "depth=3: no stack has a [truncated] root");
    }

    /** format=collapsed (live=false, so the values are alloc_space): text, root first. */
    static void collapsedStacks() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(SAMPLING
                + ",live=false,format=collapsed,file=frames.txt").label("collapsed")
                .run(CLASS, ROUNDS);
        r.assertNoCrash().assertExitCode(0);
        byte[] bytes = Files.readAllBytes(r.file("frames.txt"));
        check(!Pprof.isGzip(bytes), "format=collapsed wrote a gzipped file");
        String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        System.out.println("frames.txt:\n" + text);
        Pattern linePattern = Pattern.compile("([^ ]+) (\\d+)");
        Map<String, Long> values = new HashMap<>();
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) continue;
            Matcher m = linePattern.matcher(line);
            check(m.matches(), "collapsed: not \"frame;...;frame value\": \"" + line + "\"");
            check(values.put(m.group(1), Long.parseLong(m.group(2))) == null,
                    "collapsed: stack written twice: " + m.group(1));
        }
        check(text.endsWith("\n"), "collapsed: the last line is not terminated");
        for (Site site : SITES) {
            for (String leaf : site.leaves()) {
                String stack = String.join(";", CLASS + ".main", CLASS + ".outerCaller",
                        CLASS + ".middleCaller", site.name(), leaf);
                Long value = values.get(stack);
                check(value != null && value > 0, "collapsed: no line \"" + stack + " N\"");
            }
        }
    }

    /** The samples allocated directly by the site's method (it is their first Java frame). */
    static List<Pprof.Sample> samplesOf(Pprof p, Site site) {
        List<Pprof.Sample> found = new ArrayList<>();
        for (Pprof.Sample s : p.samples) {
            List<Pprof.Frame> frames = p.frames(s);
            if (frames.size() > 1 && frames.get(1).name().equals(site.name())) found.add(s);
        }
        check(!found.isEmpty(), "no sample allocated by " + site.name());
        return found;
    }

    static void checkLeaf(Pprof.Frame leaf, Site site, String where) {
        check(site.leaves().contains(leaf.name()), where + ": leaf is not one of " + site.leaves());
        // A pseudo-frame: no file, no line, no signature (system_name empty or the name).
        check(leaf.line() == 0 && leaf.filename().isEmpty()
                && (leaf.systemName().isEmpty() || leaf.systemName().equals(leaf.name())),
                where + ": the class leaf is not a pseudo-frame: system_name \""
                + leaf.systemName() + "\", file \"" + leaf.filename() + "\", line " + leaf.line());
    }

    static void checkAllocatingFrame(Pprof.Frame f, Site site, String where) {
        int allocLine = line("alloc-" + site.marker());
        int declLine = line("decl-" + site.marker());
        check(f.name().equals(site.name()), where + ": expected " + site.name());
        check(f.systemName().equals(site.systemName()),
                where + ": system_name " + f.systemName() + ", expected " + site.systemName());
        check(f.filename().equals(FILENAME), where + ": filename " + f.filename());
        check(f.line() == allocLine, where + ": line " + f.line() + ", expected " + allocLine);
        // start_line: the method's first line with code, between its declaration and the site.
        check(f.startLine() >= declLine && f.startLine() <= allocLine,
                where + ": start_line " + f.startLine() + " outside " + declLine + ".." + allocLine);
    }

    static void checkCaller(Pprof.Frame f, String method, String signature, String marker,
                            String where) {
        String name = CLASS + "." + method;
        check(f.name().equals(name) && f.systemName().equals(SLASHED + "." + method + signature)
                && f.filename().equals(FILENAME) && f.line() == line(marker),
                where + ": expected " + name + signature + " at " + FILENAME + ":" + line(marker)
                + ", got " + f.systemName() + " at " + f.filename() + ":" + f.line());
    }

    static int line(String marker) {
        Integer line = lines.get(marker);
        if (line == null) throw new AssertionError("no \"// line:" + marker + "\" in FrameSites");
        return line;
    }

    static void check(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }
}
