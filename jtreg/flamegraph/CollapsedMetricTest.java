/*
 * @test
 * @summary collapsed= picks the metric format=collapsed writes: alloc_space by default,
 *          alloc_objects as object counts, inuse_space without the garbage-only site;
 *          each site's value within 4 sigma of what FlameWorkload allocated or kept
 * @library /lib
 * @build FlameWorkload
 * @run driver CollapsedMetricTest
 */
import heapsampler.AgentRunner;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

public class CollapsedMetricTest {
    static final int INTERVAL = 8192;
    static final String CAFE = "FlameWorkload.keepCaf\u00e9";
    static final String NODES = "FlameWorkload.keepNodes";
    static final String DROP = "FlameWorkload.dropGarbage";
    /** byte[1000] with a 16-byte array header. */
    static final long ARRAY_BYTES = 1016;
    static final long CAFE_COUNT = 8_000, DROP_COUNT = 80_000;

    public static void main(String[] args) throws Exception {
        Map<String, Long> space = run(null);
        near(space, CAFE, "byte[]", CAFE_COUNT * ARRAY_BYTES, CAFE_COUNT, ARRAY_BYTES, "default");
        near(space, DROP, "byte[]", DROP_COUNT * ARRAY_BYTES, DROP_COUNT, ARRAY_BYTES, "default");

        Map<String, Long> objects = run("alloc_objects");
        near(objects, CAFE, "byte[]", CAFE_COUNT, CAFE_COUNT, ARRAY_BYTES, "alloc_objects");
        near(objects, DROP, "byte[]", DROP_COUNT, DROP_COUNT, ARRAY_BYTES, "alloc_objects");

        Map<String, Long> inuse = run("inuse_space");
        near(inuse, CAFE, "byte[]", CAFE_COUNT * ARRAY_BYTES, CAFE_COUNT, ARRAY_BYTES, "inuse_space");
        check(inuse.keySet().stream().noneMatch(s -> s.contains(DROP)),
                "inuse_space: the garbage-only site has in-use bytes: " + inuse.keySet());
        check(inuse.keySet().stream().anyMatch(s -> s.contains(NODES)),
                "inuse_space: the kept Node site is missing: " + inuse.keySet());
    }

    /** Runs the workload with format=collapsed (and collapsed=metric); stack -> value. */
    static Map<String, Long> run(String metric) throws Exception {
        // rate=0: the 4 sigma below are the JVM sampler's; the rate cap adds its own variance
        // (RateCapTest checks estimates under the cap, bursts included)
        String options = "interval=" + INTERVAL + ",rate=0,format=collapsed,file=out.txt"
                + (metric == null ? "" : ",collapsed=" + metric);
        AgentRunner.Result r = AgentRunner.withAgent(options).jvmFlags("-Xmx256m")
                .label(metric == null ? "default" : metric).run("FlameWorkload");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("FlameWorkload: done");
        Map<String, Long> values = new HashMap<>();
        String text = Files.readString(r.file("out.txt"), StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.isEmpty()) continue;
            int space = line.lastIndexOf(' ');
            values.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
        }
        return values;
    }

    /* The value of the stacks ending "...;method;leaf" against truth, within 4 sigma of an
     * estimate over n objects of size bytes each (relative sd sqrt((1-p)/(n p))). */
    static void near(Map<String, Long> values, String method, String leaf, long truth, long n,
                     long size, String what) {
        long value = values.entrySet().stream()
                .filter(e -> e.getKey().endsWith(";" + method + ";" + leaf))
                .mapToLong(Map.Entry::getValue).sum();
        double p = 1 - Math.exp(-(double) size / INTERVAL);
        double sigma = Math.sqrt((1 - p) / (n * p));
        double ratio = (double) value / truth;
        System.out.printf("%s: %s;%s = %d, truth %d, ratio %.4f, 4 sigma %.4f%n", what, method,
                leaf, value, truth, ratio, 4 * sigma);
        check(Math.abs(ratio - 1) <= 4 * sigma, what + ": " + method + ";" + leaf + " = " + value
                + ", expected " + truth + " within 4 sigma (" + 4 * sigma + ")");
    }

    static void check(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }
}
