/*
 * AllocProfiles: what the allocation-profile tests (jtreg/alloc) share on top of
 * heapsampler.Pprof: the agent's "samples recorded: ..." comment, the raw number of samples behind
 * an unbiased bucket, the Java frames of a stack without the pseudo-frames, source lines
 * marked with "// line:NAME" comments, and the JDK's feature version.
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class AllocProfiles {
    /** The root pseudo-frame of a stack cut at depth=. */
    public static final String TRUNCATED = "[truncated]";

    private static final Pattern MARKER = Pattern.compile("//\\s*line:([A-Za-z0-9_.-]+)");
    private static final Pattern SAMPLES_COMMENT = Pattern.compile(
            "samples recorded: (\\d+) .*?; dropped: (\\d+) \\(tables full\\); stack walks failed: "
            + "(\\d+); samples whose stack was cut at depth=(\\d+): (\\d+)");

    private AllocProfiles() {
    }

    /** The numbers of the agent's "samples recorded: ..." comment. */
    public static final class SampleCounts {
        private final long recorded;
        private final long dropped;
        private final long walksFailed;
        private final long truncated;
        private final int depth;

        public SampleCounts(long recorded, long dropped, long walksFailed, long truncated, int depth) {
            this.recorded = recorded;
            this.dropped = dropped;
            this.walksFailed = walksFailed;
            this.truncated = truncated;
            this.depth = depth;
        }

        public long recorded() {
            return recorded;
        }

        public long dropped() {
            return dropped;
        }

        public long walksFailed() {
            return walksFailed;
        }

        public long truncated() {
            return truncated;
        }

        public int depth() {
            return depth;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof SampleCounts)) return false;
            SampleCounts other = (SampleCounts) o;
            return recorded == other.recorded && dropped == other.dropped && walksFailed == other.walksFailed && truncated == other.truncated && depth == other.depth;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(recorded, dropped, walksFailed, truncated, depth);
        }

        @Override
        public String toString() {
            return "SampleCounts[" + "recorded=" + recorded + ", " + "dropped=" + dropped + ", " + "walksFailed=" + walksFailed + ", " + "truncated=" + truncated + ", " + "depth=" + depth + "]";
        }
    }

    /** Parses the "samples recorded: N; ..." comment; fails if the profile has none. */
    public static SampleCounts sampleCounts(Pprof profile) {
        for (String comment : profile.comments) {
            Matcher m = SAMPLES_COMMENT.matcher(comment);
            if (m.find()) {
                return new SampleCounts(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3)), Long.parseLong(m.group(5)),
                        Integer.parseInt(m.group(4)));
            }
        }
        throw new AssertionError("no \"samples recorded: ...\" comment in " + profile.comments);
    }

    /**
     * The probability that the JVM samples an object of this size: its sampler places
     * sampling points on the thread's allocated bytes with exponential gaps of mean interval
     * (a Poisson process), so an object is sampled when at least one point falls within its
     * bytes: 1 - exp(-size/interval). Interval 0 samples everything.
     */
    public static double samplingProbability(long size, long interval) {
        if (interval <= 0) return 1.0;
        return -Math.expm1(-(double) size / interval);
    }

    /**
     * The number of samples behind one bucket: the agent wrote alloc_space = samples x
     * size / p, so samples = alloc_space x p / size. alloc_space rather than alloc_objects
     * because its rounding error (at most half a byte) is negligible after dividing by size.
     */
    public static double rawSamples(Pprof profile, Pprof.Sample sample) {
        Long size = Pprof.numLabel(sample, "bytes");
        if (size == null || size <= 0) {
            throw new AssertionError("sample without a positive \"bytes\" label: "
                    + profile.frames(sample));
        }
        long space = sample.value(profile.typeIndex("alloc_space"));
        return space * samplingProbability(size, profile.period) / size;
    }

    /** The sample's Java frames (leaf first): without the class leaf and "[truncated]". */
    public static List<Pprof.Frame> javaFrames(Pprof profile, Pprof.Sample sample) {
        List<Pprof.Frame> frames = profile.frames(sample);
        int end = frames.size();
        if (end > 1 && frames.get(end - 1).name().equals(TRUNCATED)) end--;
        return frames.subList(Math.min(1, end), end);
    }

    /** Whether the stack was cut at depth= (its root is the "[truncated]" pseudo-frame). */
    public static boolean isTruncated(Pprof profile, Pprof.Sample sample) {
        List<Pprof.Frame> frames = profile.frames(sample);
        return !frames.isEmpty() && frames.get(frames.size() - 1).name().equals(TRUNCATED);
    }

    /** A file of the test's source directory (jtreg's test.src). */
    public static Path testSource(String relative) {
        return Paths.get(System.getProperty("test.src", "."), relative);
    }

    /**
     * The line numbers of a source file's lines that end with a "// line:NAME" comment, by
     * NAME; a NAME used twice is an error. Tests find expected line numbers this way, so
     * editing the workload does not break them.
     */
    public static Map<String, Integer> markedLines(Path source) throws IOException {
        Map<String, Integer> lines = new HashMap<>();
        List<String> text = Files.readAllLines(source);
        for (int i = 0; i < text.size(); i++) {
            Matcher m = MARKER.matcher(text.get(i));
            if (m.find() && lines.put(m.group(1), i + 1) != null) {
                throw new AssertionError(source + ": marker line:" + m.group(1) + " used twice");
            }
        }
        return lines;
    }

    /** The feature version of the JDK under test (17, 25, ...). */
    public static int jdkFeature() {
        return Runtime.version().feature();
    }

    /** Reads and validates the profile a run wrote; fails the run if it is missing. */
    public static Pprof readProfile(AgentRunner.Result run, String fileName) throws IOException {
        Path file = run.file(fileName);
        if (!Files.isRegularFile(file)) run.fail("no profile at " + file);
        if (!Pprof.isGzip(file)) run.fail(file + " is not gzipped");
        Pprof profile = Pprof.read(file);
        profile.validate();
        return profile;
    }
}
