/*
 * @test
 * @summary Profiles real tools accept: every string strict UTF-8 (a class and a method named
 *          with U+20000), no hidden-class address in any function name, the workload's
 *          functions (lambdas included) named the same in two runs, no real site with in-use
 *          above its allocation, a 300-frame stack whole at the default depth, and
 *          threads=true labelling samples with their thread's name (off by default)
 * @library /lib
 * @run driver FidelityTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

public class FidelityTest {
    /** U+20000 (CJK Extension B) as a Java string: the workload's class and method names use it. */
    static final String CJK = new String(Character.toChars(0x20000));
    static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{4,}");
    static final String RESIDUAL = "[heap not attributed to samples]";
    /** Names (and file names) with non-ASCII characters need a UTF-8 locale on JDK 17. */
    static final String LOCALE = "C.UTF-8";

    public static void main(String[] args) throws Exception {
        Path classes = compileWorkload();
        Pprof labelled = profile(classes, "threads=true", "threads");
        Pprof plain = profile(classes, "", "plain");

        Set<String> first = workloadFunctions(labelled), second = workloadFunctions(plain);
        check(first.contains(CJK + "Names.alloc" + CJK), "no " + CJK + "Names.alloc" + CJK + " in " + first);
        check(first.stream().anyMatch(n -> n.contains("$$Lambda")), "no lambda class frame in " + first);
        check(first.equals(second), "the workload's functions differ between runs:\n  " + first + "\n  " + second);

        for (Pprof.Sample s : labelled.samples) {
            String thread = Pprof.strLabel(s, "thread");
            boolean residual = labelled.leafName(s).equals(RESIDUAL);
            check(residual || thread != null, "a sample without a thread label: " + labelled.stackNames(s));
            if (labelled.hasFrame(s, "FidelityWorkload.knownSite")) {
                check(thread != null && thread.startsWith("fidelity-worker-"),
                        "knownSite sampled on thread " + thread);
            }
        }
        check(labelled.samplesWithFrame("FidelityWorkload.knownSite").stream()
                .map(s -> Pprof.strLabel(s, "thread")).distinct().count() == 2,
                "knownSite is not labelled with both worker threads");
        for (Pprof.Sample s : plain.samples) {
            check(Pprof.strLabel(s, "thread") == null, "a thread label without threads=true");
        }
    }

    /** Compiles the workload (UTF-8 source and class file names) into a scratch directory. */
    static Path compileWorkload() throws Exception {
        Path out = AgentRunner.newRunDirectory("classes");
        Path javac = Paths.get(System.getProperty("java.home"), "bin", "javac");
        Path source = Paths.get(System.getProperty("test.src"), "FidelityWorkload.java");
        ProcessBuilder pb = new ProcessBuilder(javac.toString(), "-encoding", "UTF-8", "-d",
                out.toString(), source.toString()).inheritIO();
        pb.environment().put("LC_ALL", LOCALE);
        check(pb.start().waitFor() == 0, "javac failed on " + source);
        return out;
    }

    /** One run at the default depth; checks what every profile must satisfy, returns it. */
    static Pprof profile(Path classes, String options, String label) throws Exception {
        String file = label + ".pb.gz";
        AgentRunner.Result r = AgentRunner
                // rate=0: both runs must sample the same functions, as the JVM's sampler does
                .withAgent("interval=16k,rate=0,file=" + file + (options.isEmpty() ? "" : "," + options))
                .env("LC_ALL", LOCALE).label(label)
                .runJava("-cp", classes.toString(), "FidelityWorkload");
        r.assertNoCrash().assertExitCode(0);
        check(!r.stderr.contains("Exception"), "the workload failed:\n" + r.stderr);
        check(r.agentLines().isEmpty(), "the agent warned: " + r.agentLines());

        List<String> invalid = Pprof.invalidUtf8Strings(r.file(file));
        check(invalid.isEmpty(), "strings that are not UTF-8: " + invalid);
        Pprof p = Pprof.read(r.file(file)).validate();
        for (String s : p.strings) check(s.indexOf('\0') < 0, "a NUL in string \"" + s + "\"");
        for (Pprof.Function f : p.functions) {
            check(!ADDRESS.matcher(f.name()).find() && !ADDRESS.matcher(f.systemName()).find(),
                    "a hidden-class address in " + f.name() + " / " + f.systemName());
            check(!f.filename().matches("(.+/)\\1.*"), "a doubled package path: " + f.filename());
        }
        int allocObjects = p.typeIndex("alloc_objects"), allocSpace = p.typeIndex("alloc_space");
        int inuseObjects = p.typeIndex("inuse_objects"), inuseSpace = p.typeIndex("inuse_space");
        for (Pprof.Sample s : p.samples) {
            if (p.leafName(s).equals(RESIDUAL)) continue;
            check(s.value(inuseObjects) <= s.value(allocObjects) && s.value(inuseSpace) <= s.value(allocSpace),
                    "in-use above alloc " + java.util.Arrays.toString(s.values()) + " at " + p.stackNames(s));
        }
        List<Pprof.Sample> deep = p.samplesWithFrame("FidelityWorkload.deep");
        check(!deep.isEmpty(), "the 300-frame recursion was not sampled");
        for (Pprof.Sample s : deep) {
            List<String> names = p.stackNames(s);
            check(!names.contains("[truncated]") && names.get(names.size() - 1).equals("java.lang.Thread.run"),
                    "a 300-frame stack cut at the default depth: ..." + names.subList(names.size() - 3, names.size()));
        }
        return p;
    }

    /**
     * Functions of the workload's own code, its lambdas' classes included, on the worker
     * threads' stacks (sampled hundreds of times per run; main's few allocations are not).
     * The leaf, the allocated class, is left out: the one lambda object each worker allocates
     * (a FidelityWorkload$$Lambda leaf) is sampled in some runs only.
     */
    static Set<String> workloadFunctions(Pprof p) {
        Set<String> names = new TreeSet<>();
        for (Pprof.Sample s : p.samplesWithFrame("FidelityWorkload.run")) {
            List<String> stack = p.stackNames(s);
            for (String name : stack.subList(1, stack.size())) {
                if (name.startsWith("FidelityWorkload") || name.startsWith(CJK)) names.add(name);
            }
        }
        return names;
    }

    static void check(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }
}
