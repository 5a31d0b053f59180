/*
 * @test
 * @summary The allocation profile of a varied workload is read by the reference reader:
 *          `go tool pprof -raw` decodes it (exit 0, no "unrecognized profile format"),
 *          -top and -traces work on it, and it has Go's heap-profile shape (sample types
 *          in Go's order, period space/bytes = interval, a "bytes" label per sample), with
 *          live tracking on (4 sample types) and off (2)
 * @library /lib
 * @build AllocProfiles MixedWorkload
 * @run driver PprofValidTest
 */
import heapsampler.AgentRunner;
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

public class PprofValidTest {
    static final int INTERVAL = 16 * 1024;

    public static void main(String[] args) throws Exception {
        Path go = GoPprof.requireGo();
        check(go, true);
        check(go, false);
    }

    static void check(Path go, boolean live) throws Exception {
        String file = live ? "live.pb.gz" : "alloc.pb.gz";
        AgentRunner.Result r = AgentRunner.withAgent("interval=" + INTERVAL + ",live=" + live
                + ",file=" + file).label(live ? "live" : "alloc").jvmFlags("-Xmx128m")
                .run("MixedWorkload", "12");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(MixedWorkload.DONE);
        Pprof p = AllocProfiles.readProfile(r, file);
        System.out.println(p.summary(15));
        checkShape(p, live);

        Path path = r.file(file);
        GoPprof.Result raw = GoPprof.raw(go, path);
        raw.assertSuccess();
        noUnrecognized(raw);
        // -raw prints the sample types as its header and every location's function.
        String header = live
                ? "alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes"
                : "alloc_objects/count alloc_space/bytes";
        if (!raw.stdout().contains(header) || !raw.stdout().contains("MixedWorkload.countWords")
                || !raw.stdout().contains("Period: " + INTERVAL)) {
            throw new AssertionError("go tool pprof -raw does not show the sample types \""
                    + header + "\", the period and MixedWorkload's frames\n" + raw.describe());
        }

        for (String index : live ? List.of("alloc_space", "inuse_space", "alloc_objects")
                : List.of("alloc_space", "alloc_objects")) {
            GoPprof.Result top = GoPprof.pprof(go, "-top", "-sample_index=" + index,
                    path.toString());
            top.assertSuccess();
            noUnrecognized(top);
            if (!top.stdout().contains("flat%") || !top.stdout().contains("cum%")) {
                throw new AssertionError("go tool pprof -top printed no table\n" + top.describe());
            }
        }
        // Allocations are in the table: class leaves show in -top's alloc_space view.
        GoPprof.Result top = GoPprof.pprof(go, "-top", "-sample_index=alloc_space",
                path.toString());
        if (!top.stdout().contains("byte[]") || !top.stdout().contains("java.lang.String")) {
            throw new AssertionError("-top lacks the byte[] and String leaves\n" + top.describe());
        }
        GoPprof.Result traces = GoPprof.pprof(go, "-traces", path.toString());
        traces.assertSuccess();
        noUnrecognized(traces);
        if (!traces.stdout().contains("MixedWorkload.run")) {
            throw new AssertionError("-traces shows no MixedWorkload.run frame\n"
                    + traces.describe());
        }
    }

    /** Go's heap-profile conventions (see the notes in pprof.md of the project). */
    static void checkShape(Pprof p, boolean live) {
        List<String> expected = live
                ? List.of("alloc_objects/count", "alloc_space/bytes", "inuse_objects/count",
                        "inuse_space/bytes")
                : List.of("alloc_objects/count", "alloc_space/bytes");
        List<String> actual = p.sampleTypes.stream().map(Pprof.ValueType::toString)
                .collect(Collectors.toList());
        if (!actual.equals(expected)) {
            throw new AssertionError("sample types " + actual + ", expected " + expected);
        }
        String defaultType = live ? "inuse_space" : "alloc_space";
        if (!p.defaultSampleType.equals(defaultType)) {
            throw new AssertionError("default sample type '" + p.defaultSampleType
                    + "', expected " + defaultType);
        }
        if (p.periodType == null || !p.periodType.toString().equals("space/bytes")
                || p.period != INTERVAL) {
            throw new AssertionError("period " + p.period + " " + p.periodType
                    + ", expected " + INTERVAL + " space/bytes");
        }
        if (p.samples.size() < 20) {
            throw new AssertionError("only " + p.samples.size() + " samples");
        }
        int allocObjects = p.typeIndex("alloc_objects");
        int allocSpace = p.typeIndex("alloc_space");
        long withJavaFrames = 0;
        for (Pprof.Sample s : p.samples) {
            for (long v : s.values()) {
                if (v < 0) throw new AssertionError("negative value in " + p.frames(s));
            }
            // The residual pseudo-sample of the live view has no allocation and no size.
            if (s.value(allocObjects) == 0 && s.value(allocSpace) == 0) continue;
            Long bytes = Pprof.numLabel(s, "bytes");
            if (bytes == null || bytes <= 0) {
                throw new AssertionError("sample without a positive \"bytes\" label: "
                        + p.frames(s));
            }
            if (!AllocProfiles.javaFrames(p, s).isEmpty()) withJavaFrames++;
        }
        if (withJavaFrames == 0) throw new AssertionError("no sample has Java frames");
    }

    static void noUnrecognized(GoPprof.Result result) {
        if ((result.stdout() + result.stderr()).toLowerCase().contains("unrecognized")) {
            throw new AssertionError("go tool pprof did not recognize the profile\n"
                    + result.describe());
        }
    }
}
