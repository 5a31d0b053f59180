/*
 * @test
 * @summary The suite's own profile.proto decoder (heapsampler.Pprof): every field, packed
 *          and unpacked repeated fields, unknown fields, negative and large values, stack
 *          helpers, structural checks; and the same bytes read by go tool pprof -raw
 * @library /lib
 * @run main PprofDecoderTest
 */
import heapsampler.GoPprof;
import heapsampler.Pprof;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

public class PprofDecoderTest {
    static final long BIG = 1L << 40;

    public static void main(String[] args) throws Exception {
        byte[] encoded = goodProfile();
        Pprof p = Pprof.parse(gzip(encoded));
        System.out.println(p.summary(10));
        p.validate();
        checkHeader(p);
        checkStacks(p);
        checkSums(p);
        checkLabels(p);
        malformedBytesAreRejected(encoded);
        validateFindsProblems();
        goReadsTheSameBytes(encoded);
        System.out.println("PprofDecoderTest passed");
    }

    // ---- A known profile, written with the minimal encoder below -------------------------

    /*
     * Functions: 1 Main.main (line 10), 2 Main.helper (line 20), 3 byte[] (pseudo-frame).
     * Locations: 1 byte[]; 2 Main.helper:22; 3 Main.main:12;
     *            4 Main.helper:25 inlined into Main.main:14 (two lines, innermost first).
     * Samples (alloc_objects, alloc_space):
     *   A [1,2,3] = (2, 2048)  bytes=1024         location ids packed
     *   B [1,4]   = (1, 4096)  bytes=4096 class=byte[]   location ids and values unpacked
     *   C [1,3]   = (-1, 2^40) bytes=8 (unit "bytes")
     */
    static byte[] goodProfile() {
        Strings s = new Strings();
        Proto profile = new Proto();
        profile.message(1, new Proto().varint(1, s.id("alloc_objects")).varint(2, s.id("count")));
        profile.message(1, new Proto().varint(1, s.id("alloc_space")).varint(2, s.id("bytes")));
        profile.message(2, new Proto().packed(1, 1, 2, 3).packed(2, 2, 2048)
                .message(3, new Proto().varint(1, s.id("bytes")).varint(3, 1024)));
        profile.message(2, new Proto().varint(1, 1).varint(1, 4).varint(2, 1).varint(2, 4096)
                .message(3, new Proto().varint(1, s.id("bytes")).varint(3, 4096))
                .message(3, new Proto().varint(1, s.id("class")).varint(2, s.id("byte[]"))));
        profile.message(2, new Proto().packed(1, 1, 3).packed(2, -1, BIG)
                .message(3, new Proto().varint(1, s.id("bytes")).varint(3, 8)
                        .varint(4, s.id("bytes"))));
        profile.message(3, new Proto().varint(1, 1).varint(5, s.id("[jvm]")).varint(7, 1)
                .varint(8, 1).varint(9, 1));
        profile.message(4, location(1, line(3, 0)));
        profile.message(4, location(2, line(2, 22)));
        profile.message(4, location(3, line(1, 12)));
        profile.message(4, location(4, line(2, 25), line(1, 14)));
        profile.message(5, function(1, s.id("Main.main"), s.id("Main.main([Ljava/lang/String;)V"),
                s.id("Main.java"), 10));
        profile.message(5, function(2, s.id("Main.helper"), s.id("Main.helper()V"),
                s.id("Main.java"), 20));
        profile.message(5, function(3, s.id("byte[]"), s.id("byte[]"), 0, 0));
        profile.varint(99, 12345);      // unknown fields are skipped
        profile.fixed64(98, -1L);
        profile.varint(9, 1_700_000_000_123_456_789L);
        profile.varint(10, 2_500_000_000L);
        profile.message(11, new Proto().varint(1, s.id("space")).varint(2, s.id("bytes")));
        profile.varint(12, 524288);
        profile.packed(13, s.id("first comment"), s.id("second comment"));
        profile.varint(14, s.id("alloc_space"));
        profile.varint(15, s.id("https://example.org/doc"));
        profile.varint(7, s.id("java\\.lang\\.Thread\\.run"));
        for (String string : s.table) profile.string(6, string); // the table comes last
        return profile.bytes();
    }

    static Proto location(long id, Proto... lines) {
        Proto l = new Proto().varint(1, id).varint(2, 1);
        for (Proto line : lines) l.message(4, line);
        return l;
    }

    static Proto line(long functionId, long line) {
        return new Proto().varint(1, functionId).varint(2, line);
    }

    static Proto function(long id, long name, long systemName, long filename, long startLine) {
        return new Proto().varint(1, id).varint(2, name).varint(3, systemName)
                .varint(4, filename).varint(5, startLine);
    }

    // ---- What the decoder must find ---------------------------------------------------------

    static void checkHeader(Pprof p) {
        check(p.sampleTypes.toString(), "[alloc_objects/count, alloc_space/bytes]");
        check(p.periodType.toString(), "space/bytes");
        check(p.period, 524288L);
        check(p.timeNanos, 1_700_000_000_123_456_789L);
        check(p.durationNanos, 2_500_000_000L);
        check(p.comments, List.of("first comment", "second comment"));
        check(p.defaultSampleType, "alloc_space");
        check(p.docUrl, "https://example.org/doc");
        check(p.dropFrames, "java\\.lang\\.Thread\\.run");
        check(p.keepFrames, "");
        check(p.strings.get(0), "");
        check(p.samples.size(), 3);
        check(p.locations.size(), 4);
        check(p.functions.size(), 3);
        check(p.mappings.size(), 1);
        Pprof.Mapping m = p.mappings.get(0);
        check(m.filename(), "[jvm]");
        check(m.hasFunctions() && m.hasFilenames() && m.hasLineNumbers() && !m.hasInlineFrames(),
                true);
        Pprof.Function main = p.function(1);
        check(main.name(), "Main.main");
        check(main.systemName(), "Main.main([Ljava/lang/String;)V");
        check(main.filename(), "Main.java");
        check(main.startLine(), 10L);
        check(p.function(3).filename(), "");
        check(p.location(4).lines().size(), 2);
        check(p.location(4).mappingId(), 1L);
    }

    static void checkStacks(Pprof p) {
        Pprof.Sample a = p.samples.get(0), b = p.samples.get(1), c = p.samples.get(2);
        check(a.locationIds(), List.of(1L, 2L, 3L));
        check(b.locationIds(), List.of(1L, 4L));
        check(p.frames(a).toString(), "[byte[]:0, Main.helper:22, Main.main:12]");
        check(p.frames(b).toString(), "[byte[]:0, Main.helper:25, Main.main:14]");
        check(p.stackNames(c), List.of("byte[]", "Main.main"));
        check(p.leafName(a), "byte[]");
        check(p.frames(a).get(2).systemName(), "Main.main([Ljava/lang/String;)V");
        check(p.hasFrame(c, "Main.helper"), false);
        check(p.samplesWithFrame("Main.helper").size(), 2);
    }

    static void checkSums(Pprof p) {
        check(p.samples.get(2).value(0), -1L);
        check(p.samples.get(2).value(1), BIG);
        check(p.typeIndex("alloc_space"), 1);
        check(p.total("alloc_space"), 2048 + 4096 + BIG);
        check(p.total("alloc_objects"), 2L);
        check(p.sumWithFrame("alloc_space", "Main.helper"), 2048L + 4096);
        check(p.sumWithFrame("alloc_space", "Nowhere.method"), 0L);
        check(p.sum("alloc_objects", s -> s.values()[1] > 3000), 0L);
        Map<Long, Long> byLine = new LinkedHashMap<>();
        byLine.put(12L, 2048 + BIG);
        byLine.put(14L, 4096L);
        check(p.sumByLine("alloc_space", "Main.main"), byLine);
        check(p.sumByLeaf("alloc_space"), Map.of("byte[]", 2048 + 4096 + BIG));
        Map<List<String>, Long> byStack = p.sumByStack("alloc_objects");
        check(byStack.get(List.of("byte[]", "Main.helper", "Main.main")), 3L);
        check(byStack.get(List.of("byte[]", "Main.main")), -1L);
        try {
            p.typeIndex("inuse_space");
            throw new AssertionError("typeIndex accepted a missing sample type");
        } catch (AssertionError expected) {
            if (!expected.getMessage().contains("no sample type 'inuse_space'")) throw expected;
        }
    }

    static void checkLabels(Pprof p) {
        check(Pprof.numLabel(p.samples.get(0), "bytes"), 1024L);
        check(Pprof.numLabel(p.samples.get(1), "bytes"), 4096L);
        check(Pprof.strLabel(p.samples.get(1), "class"), "byte[]");
        check(Pprof.numLabel(p.samples.get(1), "class"), null);
        check(Pprof.strLabel(p.samples.get(0), "class"), null);
        check(p.samples.get(2).labels().get(0).numUnit(), "bytes");
    }

    // ---- Malformed input -----------------------------------------------------------------

    static void malformedBytesAreRejected(byte[] good) throws Exception {
        rejects(java.util.Arrays.copyOf(good, good.length - 3), "truncated profile");
        rejects(new Proto().varint(14, 5).string(6, "").bytes(), "string index past the table");
        rejects(new byte[] {(byte) 0x0a, (byte) 0x7f, 0x08}, "length past the end");
        rejects(new byte[] {(byte) 0x0b}, "wire type 3 (groups are not used by profile.proto)");
        rejects(new Proto().varint(1, 3).bytes(), "sample_type written as a varint");
    }

    static void rejects(byte[] bytes, String what) throws Exception {
        try {
            Pprof.parse(bytes);
        } catch (Pprof.FormatException expected) {
            System.out.println("rejected (" + what + "): " + expected.getMessage());
            return;
        }
        throw new AssertionError("the decoder accepted a " + what);
    }

    static void validateFindsProblems() throws Exception {
        Strings s = new Strings();
        Proto broken = new Proto();
        broken.message(1, new Proto().varint(1, s.id("alloc_space")).varint(2, s.id("bytes")));
        broken.message(2, new Proto().packed(1, 1, 7).packed(2, 1, 2));   // 2 values, 1 type
        broken.message(4, location(1, line(2, 3)));                       // function 2 missing
        broken.message(5, function(1, s.id("f"), 0, 0, 0));
        broken.message(5, function(1, s.id("g"), 0, 0, 0));               // duplicate id
        broken.message(5, function(0, s.id("h"), 0, 0, 0));               // id 0
        broken.varint(14, s.id("inuse_space"));
        for (String string : s.table) broken.string(6, string);
        String message;
        try {
            Pprof.parse(broken.bytes()).validate();
            throw new AssertionError("validate() accepted a broken profile");
        } catch (AssertionError e) {
            message = e.getMessage();
        }
        System.out.println(message);
        for (String expected : List.of("sample 0 has 2 values for 1 sample types",
                "sample 0 names missing location 7", "location 1 names missing function 2",
                "duplicate function id 1", "function with id 0",
                "default_sample_type 'inuse_space' is not a sample type")) {
            if (!message.contains(expected)) {
                throw new AssertionError("validate() did not report \"" + expected + "\":\n"
                        + message);
            }
        }
        // string_table[0] must be "".
        Proto noEmptyString = new Proto().string(6, "x").string(6, "");
        noEmptyString.message(1, new Proto().varint(1, 1).varint(2, 1));
        try {
            Pprof.parse(noEmptyString.bytes()).validate();
            throw new AssertionError("validate() accepted a string table without \"\" first");
        } catch (AssertionError e) {
            if (!e.getMessage().contains("string_table[0]")) throw e;
        }
    }

    // ---- The reference reader ----------------------------------------------------------------

    static void goReadsTheSameBytes(byte[] encoded) throws Exception {
        Optional<Path> go = GoPprof.findGo();
        if (go.isEmpty()) {
            System.out.println("skipped: go not found: go tool pprof -raw not run");
            return;
        }
        Path file = Paths.get("decoder-selftest.pb.gz").toAbsolutePath();
        Files.write(file, gzip(encoded));
        GoPprof.Result r = GoPprof.raw(go.get(), file).assertSuccess();
        for (String expected : List.of("Comment: first comment", "Comment: second comment",
                "PeriodType: space bytes", "Period: 524288", "Duration: 2.5s",
                "alloc_objects/count alloc_space/bytes[dflt]",
                "2       2048: 1 2 3", "-1 1099511627776: 1 3", "bytes:[1024]",
                "class:[byte[]]", "bytes:[8 bytes]", "[jvm]  [FN][FL][LN]",
                "Main.helper Main.java:25 s=20(Main.helper()V)",
                "Main.main Main.java:14 s=10(Main.main([Ljava/lang/String;)V)")) {
            if (!r.stdout().contains(expected)) {
                throw new AssertionError("go tool pprof -raw output lacks \"" + expected + "\"\n"
                        + r.describe());
            }
        }
    }

    // ---- Helpers ----------------------------------------------------------------------------

    static void check(Object actual, Object expected) {
        if (!java.util.Objects.equals(actual, expected)) {
            throw new AssertionError("expected <" + expected + "> but was <" + actual + ">");
        }
    }

    static byte[] gzip(byte[] bytes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        }
        return out.toByteArray();
    }

    /** A string table under construction: "" first, each string once. */
    static final class Strings {
        final List<String> table = new ArrayList<>(List.of(""));

        long id(String s) {
            int index = table.indexOf(s);
            if (index >= 0) return index;
            table.add(s);
            return table.size() - 1;
        }
    }

    /** The smallest protobuf writer that can build a profile (varints and bytes). */
    static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Proto varint(int field, long value) {
            raw((long) field << 3);
            raw(value);
            return this;
        }

        Proto fixed64(int field, long value) {
            raw((long) field << 3 | 1);
            for (int i = 0; i < 8; i++) out.write((int) (value >>> (8 * i)) & 0xff);
            return this;
        }

        Proto bytes(int field, byte[] bytes) {
            raw((long) field << 3 | 2);
            raw(bytes.length);
            out.writeBytes(bytes);
            return this;
        }

        Proto string(int field, String s) {
            return bytes(field, s.getBytes(StandardCharsets.UTF_8));
        }

        Proto message(int field, Proto message) {
            return bytes(field, message.bytes());
        }

        Proto packed(int field, long... values) {
            Proto packed = new Proto();
            for (long v : values) packed.raw(v);
            return bytes(field, packed.bytes());
        }

        private void raw(long value) {
            while ((value & ~0x7fL) != 0) {
                out.write((int) (value & 0x7f) | 0x80);
                value >>>= 7;
            }
            out.write((int) value);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
