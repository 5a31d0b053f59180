/*
 * Pprof: reads a profile.proto file (gzipped or not) into plain Java objects, checks its
 * structure, and answers the questions tests ask: how much of value X was sampled under
 * frame F, at which line, in which stacks.
 *
 * Our own decoder of the protobuf wire format (only what profile.proto uses: varints,
 * length-delimited fields, packed and unpacked repeated scalars; fixed32/64 are skipped).
 * Strings are resolved through the string table while decoding, so every object here holds
 * real strings, never indices. Stacks are leaf first, as in the file.
 *
 *   Pprof p = Pprof.read(path);
 *   p.validate();
 *   long bytes = p.sumWithFrame("alloc_space", "Allocate.makeArrays");
 *   Map<Long, Long> perLine = p.sumByLine("alloc_space", "Allocate.makeArrays");
 */
package heapsampler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

public final class Pprof {
    /** A sample type or the period type, e.g. alloc_space/bytes. */
    public static final class ValueType {
        private final String type;
        private final String unit;

        public ValueType(String type, String unit) {
            this.type = type;
            this.unit = unit;
        }

        public String type() {
            return type;
        }

        public String unit() {
            return unit;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof ValueType)) return false;
            ValueType other = (ValueType) o;
            return java.util.Objects.equals(type, other.type) && java.util.Objects.equals(unit, other.unit);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(type, unit);
        }

        @Override
        public String toString() {
            return type + "/" + unit;
        }
    }

    /** A sample label: either str or num (with an optional unit) is set. */
    public static final class Label {
        private final String key;
        private final String str;
        private final long num;
        private final String numUnit;

        public Label(String key, String str, long num, String numUnit) {
            this.key = key;
            this.str = str;
            this.num = num;
            this.numUnit = numUnit;
        }

        public String key() {
            return key;
        }

        public String str() {
            return str;
        }

        public long num() {
            return num;
        }

        public String numUnit() {
            return numUnit;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Label)) return false;
            Label other = (Label) o;
            return java.util.Objects.equals(key, other.key) && java.util.Objects.equals(str, other.str) && num == other.num && java.util.Objects.equals(numUnit, other.numUnit);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(key, str, num, numUnit);
        }

        @Override
        public String toString() {
            return "Label[" + "key=" + key + ", " + "str=" + str + ", " + "num=" + num + ", " + "numUnit=" + numUnit + "]";
        }
    }

    /** locationIds are leaf first; values has one entry per sample type. */
    public static final class Sample {
        private final List<Long> locationIds;
        private final long[] values;
        private final List<Label> labels;

        public Sample(List<Long> locationIds, long[] values, List<Label> labels) {
            this.locationIds = locationIds;
            this.values = values;
            this.labels = labels;
        }

        public List<Long> locationIds() {
            return locationIds;
        }

        public long[] values() {
            return values;
        }

        public List<Label> labels() {
            return labels;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Sample)) return false;
            Sample other = (Sample) o;
            return java.util.Objects.equals(locationIds, other.locationIds) && java.util.Objects.equals(values, other.values) && java.util.Objects.equals(labels, other.labels);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(locationIds, values, labels);
        }

        @Override
        public String toString() {
            return "Sample[" + "locationIds=" + locationIds + ", " + "values=" + values + ", " + "labels=" + labels + "]";
        }

        public long value(int index) {
            return values[index];
        }
    }

    public static final class Line {
        private final long functionId;
        private final long line;

        public Line(long functionId, long line) {
            this.functionId = functionId;
            this.line = line;
        }

        public long functionId() {
            return functionId;
        }

        public long line() {
            return line;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Line)) return false;
            Line other = (Line) o;
            return functionId == other.functionId && line == other.line;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(functionId, line);
        }

        @Override
        public String toString() {
            return "Line[" + "functionId=" + functionId + ", " + "line=" + line + "]";
        }
    }

    /** lines: innermost first; the last one is the caller the others were inlined into. */
    public static final class Location {
        private final long id;
        private final long mappingId;
        private final long address;
        private final List<Line> lines;
        private final boolean isFolded;

        public Location(long id, long mappingId, long address, List<Line> lines, boolean isFolded) {
            this.id = id;
            this.mappingId = mappingId;
            this.address = address;
            this.lines = lines;
            this.isFolded = isFolded;
        }

        public long id() {
            return id;
        }

        public long mappingId() {
            return mappingId;
        }

        public long address() {
            return address;
        }

        public List<Line> lines() {
            return lines;
        }

        public boolean isFolded() {
            return isFolded;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Location)) return false;
            Location other = (Location) o;
            return id == other.id && mappingId == other.mappingId && address == other.address && java.util.Objects.equals(lines, other.lines) && isFolded == other.isFolded;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, mappingId, address, lines, isFolded);
        }

        @Override
        public String toString() {
            return "Location[" + "id=" + id + ", " + "mappingId=" + mappingId + ", " + "address=" + address + ", " + "lines=" + lines + ", " + "isFolded=" + isFolded + "]";
        }
    }

    public static final class Function {
        private final long id;
        private final String name;
        private final String systemName;
        private final String filename;
        private final long startLine;

        public Function(long id, String name, String systemName, String filename, long startLine) {
            this.id = id;
            this.name = name;
            this.systemName = systemName;
            this.filename = filename;
            this.startLine = startLine;
        }

        public long id() {
            return id;
        }

        public String name() {
            return name;
        }

        public String systemName() {
            return systemName;
        }

        public String filename() {
            return filename;
        }

        public long startLine() {
            return startLine;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Function)) return false;
            Function other = (Function) o;
            return id == other.id && java.util.Objects.equals(name, other.name) && java.util.Objects.equals(systemName, other.systemName) && java.util.Objects.equals(filename, other.filename) && startLine == other.startLine;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, name, systemName, filename, startLine);
        }

        @Override
        public String toString() {
            return "Function[" + "id=" + id + ", " + "name=" + name + ", " + "systemName=" + systemName + ", " + "filename=" + filename + ", " + "startLine=" + startLine + "]";
        }
    }

    public static final class Mapping {
        private final long id;
        private final long memoryStart;
        private final long memoryLimit;
        private final long fileOffset;
        private final String filename;
        private final String buildId;
        private final boolean hasFunctions;
        private final boolean hasFilenames;
        private final boolean hasLineNumbers;
        private final boolean hasInlineFrames;

        public Mapping(long id, long memoryStart, long memoryLimit, long fileOffset, String filename, String buildId, boolean hasFunctions, boolean hasFilenames, boolean hasLineNumbers, boolean hasInlineFrames) {
            this.id = id;
            this.memoryStart = memoryStart;
            this.memoryLimit = memoryLimit;
            this.fileOffset = fileOffset;
            this.filename = filename;
            this.buildId = buildId;
            this.hasFunctions = hasFunctions;
            this.hasFilenames = hasFilenames;
            this.hasLineNumbers = hasLineNumbers;
            this.hasInlineFrames = hasInlineFrames;
        }

        public long id() {
            return id;
        }

        public long memoryStart() {
            return memoryStart;
        }

        public long memoryLimit() {
            return memoryLimit;
        }

        public long fileOffset() {
            return fileOffset;
        }

        public String filename() {
            return filename;
        }

        public String buildId() {
            return buildId;
        }

        public boolean hasFunctions() {
            return hasFunctions;
        }

        public boolean hasFilenames() {
            return hasFilenames;
        }

        public boolean hasLineNumbers() {
            return hasLineNumbers;
        }

        public boolean hasInlineFrames() {
            return hasInlineFrames;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Mapping)) return false;
            Mapping other = (Mapping) o;
            return id == other.id && memoryStart == other.memoryStart && memoryLimit == other.memoryLimit && fileOffset == other.fileOffset && java.util.Objects.equals(filename, other.filename) && java.util.Objects.equals(buildId, other.buildId) && hasFunctions == other.hasFunctions && hasFilenames == other.hasFilenames && hasLineNumbers == other.hasLineNumbers && hasInlineFrames == other.hasInlineFrames;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, memoryStart, memoryLimit, fileOffset, filename, buildId, hasFunctions, hasFilenames, hasLineNumbers, hasInlineFrames);
        }

        @Override
        public String toString() {
            return "Mapping[" + "id=" + id + ", " + "memoryStart=" + memoryStart + ", " + "memoryLimit=" + memoryLimit + ", " + "fileOffset=" + fileOffset + ", " + "filename=" + filename + ", " + "buildId=" + buildId + ", " + "hasFunctions=" + hasFunctions + ", " + "hasFilenames=" + hasFilenames + ", " + "hasLineNumbers=" + hasLineNumbers + ", " + "hasInlineFrames=" + hasInlineFrames + "]";
        }
    }

    /** One frame of a stack: a function and the line in it. */
    public static final class Frame {
        private final String name;
        private final String systemName;
        private final String filename;
        private final long startLine;
        private final long line;

        public Frame(String name, String systemName, String filename, long startLine, long line) {
            this.name = name;
            this.systemName = systemName;
            this.filename = filename;
            this.startLine = startLine;
            this.line = line;
        }

        public String name() {
            return name;
        }

        public String systemName() {
            return systemName;
        }

        public String filename() {
            return filename;
        }

        public long startLine() {
            return startLine;
        }

        public long line() {
            return line;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Frame)) return false;
            Frame other = (Frame) o;
            return java.util.Objects.equals(name, other.name) && java.util.Objects.equals(systemName, other.systemName) && java.util.Objects.equals(filename, other.filename) && startLine == other.startLine && line == other.line;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(name, systemName, filename, startLine, line);
        }

        @Override
        public String toString() {
            return name + ":" + line;
        }
    }

    /** The file is not a well-formed profile.proto message. */
    public static final class FormatException extends IOException {
        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            super(message);
        }
    }

    public final List<ValueType> sampleTypes;
    public final List<Sample> samples;
    public final List<Mapping> mappings;
    public final List<Location> locations;
    public final List<Function> functions;
    public final List<String> strings;
    public final String dropFrames;
    public final String keepFrames;
    public final long timeNanos;
    public final long durationNanos;
    /** null when the file has none. */
    public final ValueType periodType;
    public final long period;
    public final List<String> comments;
    /** "" when the file does not name one. */
    public final String defaultSampleType;
    public final String docUrl;

    private final Map<Long, Location> locationById = new HashMap<>();
    private final Map<Long, Function> functionById = new HashMap<>();

    /** Reads a profile file; gunzips it if it starts with the gzip magic. */
    public static Pprof read(Path file) throws IOException {
        return parse(Files.readAllBytes(file));
    }

    /** Decodes a profile; gunzips bytes that start with the gzip magic. */
    public static Pprof parse(byte[] bytes) throws IOException {
        return new Pprof(isGzip(bytes) ? gunzip(bytes) : bytes);
    }

    /**
     * The string-table entries of a profile that are not strict UTF-8 (decoded with a
     * CharsetDecoder that reports malformed input instead of replacing it), each shown as
     * its index and the lenient decoding. Empty for a valid profile.
     */
    public static List<String> invalidUtf8Strings(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        byte[] message = isGzip(bytes) ? gunzip(bytes) : bytes;
        List<String> bad = new ArrayList<>();
        int index = 0;
        for (Reader r = new Reader(message); r.more(); ) {
            int tag = r.tag();
            if (tag >>> 3 != 6 || (tag & 7) != 2) {
                r.skip(tag & 7);
                continue;
            }
            byte[] raw = r.bytes();
            try {
                StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(raw));
            } catch (java.nio.charset.CharacterCodingException e) {
                bad.add(index + ": " + new String(raw, StandardCharsets.UTF_8));
            }
            index++;
        }
        return bad;
    }

    public static boolean isGzip(byte[] bytes) {
        return bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b;
    }

    public static boolean isGzip(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return isGzip(in.readNBytes(2));
        }
    }

    public static byte[] gunzip(byte[] bytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 4);
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    // ---- Decoding ------------------------------------------------------------------------

    private Pprof(byte[] message) throws FormatException {
        // Fields may come in any order, so the string table is collected first.
        List<String> table = new ArrayList<>();
        for (Reader r = new Reader(message); r.more(); ) {
            int tag = r.tag();
            if (tag >>> 3 == 6 && (tag & 7) == 2) table.add(r.string());
            else r.skip(tag & 7);
        }
        strings = Collections.unmodifiableList(table);

        List<ValueType> types = new ArrayList<>();
        List<Sample> sampleList = new ArrayList<>();
        List<Mapping> mappingList = new ArrayList<>();
        List<Location> locationList = new ArrayList<>();
        List<Function> functionList = new ArrayList<>();
        List<String> commentList = new ArrayList<>();
        String drop = "", keep = "", defaultType = "", doc = "";
        long time = 0, duration = 0, periodValue = 0;
        ValueType periodTypeValue = null;

        for (Reader r = new Reader(message); r.more(); ) {
            int tag = r.tag();
            int field = tag >>> 3, wire = tag & 7;
            switch (field) {
                case 1: types.add(valueType(r.message(wire))); break;
                case 2: sampleList.add(sample(r.message(wire))); break;
                case 3: mappingList.add(mapping(r.message(wire))); break;
                case 4: locationList.add(location(r.message(wire))); break;
                case 5: functionList.add(function(r.message(wire))); break;
                case 6: r.skip(wire); break; // read above
                case 7: drop = string(r.varint(wire)); break;
                case 8: keep = string(r.varint(wire)); break;
                case 9: time = r.varint(wire); break;
                case 10: duration = r.varint(wire); break;
                case 11: periodTypeValue = valueType(r.message(wire)); break;
                case 12: periodValue = r.varint(wire); break;
                case 13: {
                    List<Long> indices = new ArrayList<>();
                    r.repeatedVarint(wire, indices);
                    for (long index : indices) commentList.add(string(index));
                }
                    break;
                case 14: defaultType = string(r.varint(wire)); break;
                case 15: doc = string(r.varint(wire)); break;
                default: r.skip(wire); break;
            }
        }
        sampleTypes = Collections.unmodifiableList(types);
        samples = Collections.unmodifiableList(sampleList);
        mappings = Collections.unmodifiableList(mappingList);
        locations = Collections.unmodifiableList(locationList);
        functions = Collections.unmodifiableList(functionList);
        comments = Collections.unmodifiableList(commentList);
        dropFrames = drop;
        keepFrames = keep;
        defaultSampleType = defaultType;
        docUrl = doc;
        timeNanos = time;
        durationNanos = duration;
        periodType = periodTypeValue;
        period = periodValue;
        for (Location l : locations) locationById.putIfAbsent(l.id(), l);
        for (Function f : functions) functionById.putIfAbsent(f.id(), f);
    }

    private String string(long index) throws FormatException {
        if (index < 0 || index >= strings.size()) {
            throw new FormatException("string index " + index + " outside the string table ("
                    + strings.size() + " strings)");
        }
        return strings.get((int) index);
    }

    private ValueType valueType(Reader r) throws FormatException {
        long type = 0, unit = 0;
        while (r.more()) {
            int tag = r.tag();
            switch (tag >>> 3) {
                case 1: type = r.varint(tag & 7); break;
                case 2: unit = r.varint(tag & 7); break;
                default: r.skip(tag & 7); break;
            }
        }
        return new ValueType(string(type), string(unit));
    }

    private Sample sample(Reader r) throws FormatException {
        List<Long> locationIds = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        List<Label> labels = new ArrayList<>();
        while (r.more()) {
            int tag = r.tag();
            switch (tag >>> 3) {
                case 1: r.repeatedVarint(tag & 7, locationIds); break;
                case 2: r.repeatedVarint(tag & 7, values); break;
                case 3: labels.add(label(r.message(tag & 7))); break;
                default: r.skip(tag & 7); break;
            }
        }
        long[] valueArray = values.stream().mapToLong(Long::longValue).toArray();
        return new Sample(Collections.unmodifiableList(locationIds), valueArray,
                Collections.unmodifiableList(labels));
    }

    private Label label(Reader r) throws FormatException {
        long key = 0, str = 0, num = 0, numUnit = 0;
        while (r.more()) {
            int tag = r.tag();
            switch (tag >>> 3) {
                case 1: key = r.varint(tag & 7); break;
                case 2: str = r.varint(tag & 7); break;
                case 3: num = r.varint(tag & 7); break;
                case 4: numUnit = r.varint(tag & 7); break;
                default: r.skip(tag & 7); break;
            }
        }
        return new Label(string(key), string(str), num, string(numUnit));
    }

    private Mapping mapping(Reader r) throws FormatException {
        long[] f = new long[11];
        while (r.more()) {
            int tag = r.tag();
            int field = tag >>> 3;
            if (field >= 1 && field <= 10) f[field] = r.varint(tag & 7);
            else r.skip(tag & 7);
        }
        return new Mapping(f[1], f[2], f[3], f[4], string(f[5]), string(f[6]), f[7] != 0,
                f[8] != 0, f[9] != 0, f[10] != 0);
    }

    private Location location(Reader r) throws FormatException {
        long id = 0, mappingId = 0, address = 0;
        boolean folded = false;
        List<Line> lines = new ArrayList<>();
        while (r.more()) {
            int tag = r.tag();
            switch (tag >>> 3) {
                case 1: id = r.varint(tag & 7); break;
                case 2: mappingId = r.varint(tag & 7); break;
                case 3: address = r.varint(tag & 7); break;
                case 4: lines.add(line(r.message(tag & 7))); break;
                case 5: folded = r.varint(tag & 7) != 0; break;
                default: r.skip(tag & 7); break;
            }
        }
        return new Location(id, mappingId, address, Collections.unmodifiableList(lines), folded);
    }

    private Line line(Reader r) throws FormatException {
        long functionId = 0, line = 0;
        while (r.more()) {
            int tag = r.tag();
            switch (tag >>> 3) {
                case 1: functionId = r.varint(tag & 7); break;
                case 2: line = r.varint(tag & 7); break;
                default: r.skip(tag & 7); break;
            }
        }
        return new Line(functionId, line);
    }

    private Function function(Reader r) throws FormatException {
        long id = 0, name = 0, systemName = 0, filename = 0, startLine = 0;
        while (r.more()) {
            int tag = r.tag();
            switch (tag >>> 3) {
                case 1: id = r.varint(tag & 7); break;
                case 2: name = r.varint(tag & 7); break;
                case 3: systemName = r.varint(tag & 7); break;
                case 4: filename = r.varint(tag & 7); break;
                case 5: startLine = r.varint(tag & 7); break;
                default: r.skip(tag & 7); break;
            }
        }
        return new Function(id, string(name), string(systemName), string(filename), startLine);
    }

    /** A cursor over one protobuf message (a slice of the buffer). */
    private static final class Reader {
        private final byte[] buf;
        private int pos;
        private final int end;

        Reader(byte[] buf) {
            this(buf, 0, buf.length);
        }

        private Reader(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        boolean more() {
            return pos < end;
        }

        int tag() throws FormatException {
            long tag = rawVarint();
            if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
                throw new FormatException("bad field tag " + tag + " at byte " + pos);
            }
            return (int) tag;
        }

        long rawVarint() throws FormatException {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) throw new FormatException("truncated varint at byte " + pos);
                byte b = buf[pos++];
                result |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) return result;
            }
            throw new FormatException("varint longer than 10 bytes at byte " + pos);
        }

        /** A scalar field: must have been written as a varint. */
        long varint(int wire) throws FormatException {
            if (wire != 0) throw new FormatException("expected a varint, got wire type " + wire);
            return rawVarint();
        }

        Reader message(int wire) throws FormatException {
            if (wire != 2) {
                throw new FormatException("expected a length-delimited field, got wire type "
                        + wire);
            }
            int length = length();
            Reader sub = new Reader(buf, pos, pos + length);
            pos += length;
            return sub;
        }

        byte[] bytes() throws FormatException {
            int length = length();
            byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + length);
            pos += length;
            return out;
        }

        String string() throws FormatException {
            int length = length();
            String s = new String(buf, pos, length, StandardCharsets.UTF_8);
            pos += length;
            return s;
        }

        /** A repeated scalar, packed (wire type 2) or one value per field (wire type 0). */
        void repeatedVarint(int wire, List<Long> out) throws FormatException {
            if (wire == 0) {
                out.add(rawVarint());
                return;
            }
            Reader packed = message(wire);
            while (packed.more()) out.add(packed.rawVarint());
        }

        void skip(int wire) throws FormatException {
            switch (wire) {
                case 0: rawVarint(); break;
                case 1: advance(8); break;
                case 2: advance(length()); break;
                case 5: advance(4); break;
                default: throw new FormatException("unknown wire type " + wire + " at byte "
                        + pos);
            }
        }

        private int length() throws FormatException {
            long length = rawVarint();
            if (length < 0 || length > end - pos) {
                throw new FormatException("length " + length + " at byte " + pos
                        + " runs past the end of its message (" + (end - pos) + " bytes left)");
            }
            return (int) length;
        }

        private void advance(int n) throws FormatException {
            if (n > end - pos) throw new FormatException("field runs past the end at byte " + pos);
            pos += n;
        }
    }

    // ---- Structure checks ---------------------------------------------------------------

    /**
     * Checks what google/pprof's CheckValid checks, and that every referenced id exists.
     * Throws an AssertionError listing every problem found.
     */
    public Pprof validate() {
        List<String> problems = new ArrayList<>();
        if (strings.isEmpty() || !strings.get(0).isEmpty()) {
            problems.add("string_table[0] must be the empty string");
        }
        if (sampleTypes.isEmpty()) problems.add("no sample types");
        if (!defaultSampleType.isEmpty()
                && sampleTypes.stream().noneMatch(t -> t.type().equals(defaultSampleType))) {
            problems.add("default_sample_type '" + defaultSampleType + "' is not a sample type");
        }
        checkIds("mapping", mappings.stream().map(Mapping::id).collect(Collectors.toList()),
                problems);
        checkIds("location", locations.stream().map(Location::id).collect(Collectors.toList()),
                problems);
        checkIds("function", functions.stream().map(Function::id).collect(Collectors.toList()),
                problems);
        Set<Long> mappingIds = mappings.stream().map(Mapping::id).collect(Collectors.toSet());
        for (Location l : locations) {
            if (l.mappingId() != 0 && !mappingIds.contains(l.mappingId())) {
                problems.add("location " + l.id() + " names missing mapping " + l.mappingId());
            }
            for (Line line : l.lines()) {
                if (!functionById.containsKey(line.functionId())) {
                    problems.add("location " + l.id() + " names missing function "
                            + line.functionId());
                }
            }
        }
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            if (s.values().length != sampleTypes.size()) {
                problems.add("sample " + i + " has " + s.values().length + " values for "
                        + sampleTypes.size() + " sample types");
            }
            if (s.locationIds().isEmpty()) problems.add("sample " + i + " has no locations");
            for (long id : s.locationIds()) {
                if (!locationById.containsKey(id)) {
                    problems.add("sample " + i + " names missing location " + id);
                }
            }
            for (Label label : s.labels()) {
                if (label.key().isEmpty()) problems.add("sample " + i + " has a label without key");
                if (!label.str().isEmpty() && (label.num() != 0 || !label.numUnit().isEmpty())) {
                    problems.add("sample " + i + " label '" + label.key()
                            + "' has both a string and a number");
                }
            }
        }
        if (problems.size() > 20) {
            int more = problems.size() - 20;
            problems = new ArrayList<>(problems.subList(0, 20));
            problems.add("... and " + more + " more");
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("invalid profile:\n  " + String.join("\n  ", problems));
        }
        return this;
    }

    private static void checkIds(String kind, List<Long> ids, List<String> problems) {
        Set<Long> seen = new HashSet<>();
        for (long id : ids) {
            if (id == 0) problems.add(kind + " with id 0");
            else if (!seen.add(id)) problems.add("duplicate " + kind + " id " + id);
        }
    }

    // ---- Questions tests ask ----------------------------------------------------------------

    /** The index of a sample type by name ("alloc_space"); fails if there is none. */
    public int typeIndex(String type) {
        for (int i = 0; i < sampleTypes.size(); i++) {
            if (sampleTypes.get(i).type().equals(type)) return i;
        }
        throw new AssertionError("no sample type '" + type + "' in " + sampleTypes);
    }

    public Location location(long id) {
        Location l = locationById.get(id);
        if (l == null) throw new AssertionError("no location " + id);
        return l;
    }

    public Function function(long id) {
        Function f = functionById.get(id);
        if (f == null) throw new AssertionError("no function " + id);
        return f;
    }

    /** The sample's stack, leaf first, with inlined frames expanded. */
    public List<Frame> frames(Sample s) {
        List<Frame> frames = new ArrayList<>();
        for (long id : s.locationIds()) {
            for (Line line : location(id).lines()) {
                Function f = function(line.functionId());
                frames.add(new Frame(f.name(), f.systemName(), f.filename(), f.startLine(),
                        line.line()));
            }
        }
        return frames;
    }

    /** Function names of the sample's stack, leaf first. */
    public List<String> stackNames(Sample s) {
        return frames(s).stream().map(Frame::name).collect(Collectors.toList());
    }

    /** The name of the sample's leaf frame ("" for an empty stack). */
    public String leafName(Sample s) {
        List<Frame> frames = frames(s);
        return frames.isEmpty() ? "" : frames.get(0).name();
    }

    public boolean hasFrame(Sample s, String functionName) {
        return frames(s).stream().anyMatch(f -> f.name().equals(functionName));
    }

    public List<Sample> samplesWithFrame(String functionName) {
        return samples.stream().filter(s -> hasFrame(s, functionName))
                .collect(Collectors.toList());
    }

    /** The samples that carry the string label key=value (e.g. liveness=confirmed). */
    public static Predicate<Sample> withLabel(String key, String value) {
        return s -> s.labels().stream().anyMatch(l -> l.key().equals(key) && value.equals(l.str()));
    }

    /** The samples of objects of allocatedClass allocated directly in function. */
    public Predicate<Sample> allocatedIn(String allocatedClass, String function) {
        return s -> {
            List<String> names = stackNames(s);
            return names.size() > 1 && names.get(0).equals(allocatedClass) && names.get(1).equals(function);
        };
    }

    /** Sum of one value over all samples. */
    public long total(String type) {
        return sum(type, s -> true);
    }

    /** Sum of one value over the samples that match. */
    public long sum(String type, Predicate<Sample> which) {
        int index = typeIndex(type);
        return samples.stream().filter(which).mapToLong(s -> s.value(index)).sum();
    }

    /** Sum of one value over the samples whose stack contains the function. */
    public long sumWithFrame(String type, String functionName) {
        return sum(type, s -> hasFrame(s, functionName));
    }

    /** Sum of one value per leaf frame name (e.g. per allocated class). */
    public Map<String, Long> sumByLeaf(String type) {
        int index = typeIndex(type);
        Map<String, Long> sums = new TreeMap<>();
        for (Sample s : samples) sums.merge(leafName(s), s.value(index), Long::sum);
        return sums;
    }

    /** Sum of one value per whole stack (function names, leaf first). */
    public Map<List<String>, Long> sumByStack(String type) {
        int index = typeIndex(type);
        Map<List<String>, Long> sums = new LinkedHashMap<>();
        for (Sample s : samples) sums.merge(stackNames(s), s.value(index), Long::sum);
        return sums;
    }

    /**
     * Sum of one value per line of a function, over the samples whose stack contains it:
     * which line of the method the sampled allocations came from (its leaf-most frame).
     */
    public Map<Long, Long> sumByLine(String type, String functionName) {
        int index = typeIndex(type);
        Map<Long, Long> sums = new TreeMap<>();
        for (Sample s : samples) {
            for (Frame f : frames(s)) {
                if (f.name().equals(functionName)) {
                    sums.merge(f.line(), s.value(index), Long::sum);
                    break;
                }
            }
        }
        return sums;
    }

    /** A numeric label's value, or null if the sample has no such numeric label. */
    public static Long numLabel(Sample s, String key) {
        for (Label l : s.labels()) {
            if (l.key().equals(key) && l.str().isEmpty()) return l.num();
        }
        return null;
    }

    /** A string label's value, or null if the sample has no such string label. */
    public static String strLabel(Sample s, String key) {
        for (Label l : s.labels()) {
            if (l.key().equals(key) && !l.str().isEmpty()) return l.str();
        }
        return null;
    }

    /** The header and the largest samples by the first value, for assertion messages. */
    public String summary(int maxSamples) {
        StringBuilder sb = new StringBuilder();
        sb.append("sample types: ").append(sampleTypes).append('\n');
        sb.append("default sample type: ").append(defaultSampleType).append('\n');
        sb.append("period: ").append(period).append(' ').append(periodType).append('\n');
        sb.append("time_nanos: ").append(timeNanos).append(", duration_nanos: ")
                .append(durationNanos).append('\n');
        sb.append("comments: ").append(comments).append('\n');
        sb.append(samples.size()).append(" samples, ").append(locations.size())
                .append(" locations, ").append(functions.size()).append(" functions\n");
        List<Sample> sorted = new ArrayList<>(samples);
        sorted.sort((a, b) -> Long.compare(b.values().length == 0 ? 0 : b.value(0),
                a.values().length == 0 ? 0 : a.value(0)));
        for (Sample s : sorted.subList(0, Math.min(maxSamples, sorted.size()))) {
            sb.append("  ").append(java.util.Arrays.toString(s.values()));
            for (Label l : s.labels()) {
                sb.append(' ').append(l.key()).append('=')
                        .append(l.str().isEmpty() ? Long.toString(l.num()) : l.str());
            }
            sb.append("  ").append(frames(s)).append('\n');
        }
        return sb.toString();
    }
}
