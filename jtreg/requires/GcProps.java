/*
 * GcProps: the extra @requires properties of this suite (TEST.ROOT, requires.extraPropDefns).
 *
 *   vm.gc.G1, vm.gc.Parallel, vm.gc.Serial, vm.gc.Z, vm.gc.Shenandoah, vm.gc.Epsilon
 *
 * "true" when a test may start a JVM with that collector: the JDK under test has it (a
 * `java -XX:+UseXGC -version` succeeds) and the suite was not told to run under another
 * one (jtreg's -vmoption:-XX:+UseYGC is passed on to child JVMs, and two collectors make
 * the JVM refuse to start). jtreg runs this class in the JDK under test with those options.
 */
import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

public class GcProps implements Callable<Map<String, String>> {
    /** Property suffix -> the -XX flag that selects the collector. */
    private static final Map<String, String> COLLECTORS = new LinkedHashMap<>();

    static {
        COLLECTORS.put("G1", "-XX:+UseG1GC");
        COLLECTORS.put("Parallel", "-XX:+UseParallelGC");
        COLLECTORS.put("Serial", "-XX:+UseSerialGC");
        COLLECTORS.put("Z", "-XX:+UseZGC");
        COLLECTORS.put("Shenandoah", "-XX:+UseShenandoahGC");
        COLLECTORS.put("Epsilon", "-XX:+UseEpsilonGC");
    }

    /** Epsilon is experimental on every JDK we run (11 to 25): probed with this flag before
     *  it, as its tests start it (the others are probed as they are, so that ZGC, experimental
     *  on 11, stays unsupported there). */
    private static final String UNLOCK = "-XX:+UnlockExperimentalVMOptions";

    @Override
    public Map<String, String> call() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> ownFlags = ManagementFactory.getRuntimeMXBean().getInputArguments();
        String chosen = null;
        for (String flag : COLLECTORS.values()) {
            if (ownFlags.contains(flag)) chosen = flag;
        }

        // Start every probe first, then wait: six JVM start-ups in parallel.
        Map<String, Process> probes = new HashMap<>();
        for (Map.Entry<String, String> gc : COLLECTORS.entrySet()) {
            List<String> command = new ArrayList<>();
            command.add(java);
            if (gc.getKey().equals("Epsilon")) command.add(UNLOCK);
            command.add(gc.getValue());
            command.add("-version");
            probes.put(gc.getKey(), new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        }
        Map<String, String> properties = new HashMap<>();
        for (Map.Entry<String, String> gc : COLLECTORS.entrySet()) {
            Process probe = probes.get(gc.getKey());
            boolean supported = probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0;
            if (probe.isAlive()) probe.destroyForcibly();
            boolean allowed = chosen == null || chosen.equals(gc.getValue());
            properties.put("vm.gc." + gc.getKey(), Boolean.toString(supported && allowed));
        }
        return properties;
    }
}
