/*
 * @test
 * @summary The retention walk's time budget: `dump,paths=3,budget=500ms` on a heap it cannot
 *          walk in that time (15 million references in a static store, 6,000 leaked 8 KB
 *          payloads in a static field's list that a stack local also reaches). The budget
 *          ends the walk, having visited less than the whole heap; the longest stall the
 *          application measured stays bounded (under 2 s: generous for a loaded machine,
 *          where the whole walk takes 4-8 s); the "reached" figures in the answer, the
 *          profile's comments and its samples agree. A second dump with budget=3s finds
 *          the leak through the static field LEAKED, not the stack local.
 * @library /lib
 * @build PathsBudget
 * @run driver PathsBudgetTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class PathsBudgetTest {
    static final Pattern FIGURES = Pattern.compile("reached ([0-9]+) of ([0-9]+) objects \\(([0-9]+) "
            + "of ([0-9]+) sites[^)]*\\); visited ([0-9.]+) M objects, [0-9.]+ [KMG]iB of [0-9.]+ [KMG]iB used "
            + "\\(([0-9.]+) %\\); ([0-9]+) walks?, longest pause ([0-9]+) ms, [0-9]+ ms in all \\(budget "
            + "500 ms per pause\\); (.*)");
    static final Pattern SITE = Pattern.compile("site ([0-9]+): (.*), [0-9.]+ [KMG]iB in use: ([0-9]+) of "
            + "([0-9]+) reached");
    static final Pattern STALL = Pattern.compile("longest stall: ([0-9]+) ms.*");

    public static void main(String[] args) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=exit.pb.gz")
                .selfAttach().jvmFlags("-Xmx1g", "-Xms1g")
                .label("budget")
                .run("PathsBudget", AgentRunner.agentLibrary().toString(), "now.pb.gz", "500ms",
                        "long.pb.gz");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("OK paths");
        Pprof paths = Pprof.read(r.file("now-paths.pb.gz")).validate();
        Pprof full = Pprof.read(r.file("long-paths.pb.gz")).validate();

        // The answer on stdout and the profile's comment: the same figures.
        String answer = line(r, r.stdout, "heapsampler: paths: reached ").substring("heapsampler: paths: ".length());
        String walk = paths.comments.stream().filter(c -> c.startsWith("walk: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no walk comment: " + paths.comments));
        System.out.println("answer: " + answer);
        if (!walk.equals("walk: " + answer)) r.fail("comment '" + walk + "' differs from the answer");
        Matcher m = FIGURES.matcher(answer);
        if (!m.matches()) r.fail("figures: " + answer);
        int reached = Integer.parseInt(m.group(1)), targets = Integer.parseInt(m.group(2));
        int sitesReached = Integer.parseInt(m.group(3)), sites = Integer.parseInt(m.group(4));
        double visitedPercent = Double.parseDouble(m.group(6));
        int walks = Integer.parseInt(m.group(7));
        long longestPause = Long.parseLong(m.group(8));

        // The budget ended the walk before it saw the whole heap (on JDK 17 possibly because
        // the JVM's fixed cost of one more pass would not fit in it).
        if (!m.group(9).equals("the budget ended the walk") && !m.group(9).startsWith("not walked further")) {
            r.fail("the budget did not end the walk: " + answer);
        }
        if (!(visitedPercent < 100)) r.fail("visited " + visitedPercent + " % of the heap: " + answer);
        if (walks < 1 || walks > 3) r.fail(walks + " walks");

        // The pause, as the agent timed it and as the application felt it.
        Matcher stall = STALL.matcher(line(r, r.stdout, "longest stall: "));
        if (!stall.matches()) r.fail("no stall line");
        long stallMs = Long.parseLong(stall.group(1));
        System.out.printf("longest stall %d ms, longest pause %d ms (budget 500 ms)%n", stallMs, longestPause);
        if (stallMs >= 2000) r.fail("the application stalled " + stallMs + " ms with budget=500ms");
        if (longestPause >= 2000) r.fail("a pause of " + longestPause + " ms with budget=500ms");

        // Per site: the counts add up to the totals, and to the samples of the profile.
        int sumReached = 0, sumTargets = 0, withPath = 0;
        List<String> siteLines = paths.comments.stream().filter(c -> c.startsWith("site ")).toList();
        if (siteLines.size() != sites) r.fail(sites + " sites but site lines " + siteLines);
        for (String s : siteLines) {
            Matcher sm = SITE.matcher(s);
            if (!sm.matches()) r.fail("site line: " + s);
            int sr = Integer.parseInt(sm.group(3)), st = Integer.parseInt(sm.group(4));
            if (sr > st || st < 1 || st > 4) r.fail("site line: " + s);
            sumReached += sr;
            sumTargets += st;
            withPath += sr > 0 ? 1 : 0;
            if (r.stdout.indexOf("heapsampler: paths: " + s) < 0) r.fail("not in the answer: " + s);
        }
        if (sumReached != reached || sumTargets != targets || withPath != sitesReached) {
            r.fail("site lines " + siteLines + " do not add up to " + answer);
        }
        if (paths.samples.size() != reached) r.fail(paths.samples.size() + " samples, " + reached + " reached");

        // The leak (its byte[] payloads) is found, through the static field, not the local;
        // in the short walk if it got there, in the long one surely.
        checkLeakPaths(r, paths);
        if (checkLeakPaths(r, full) == 0) r.fail("no path to the leak's payloads: " + full.comments);
    }

    static int checkLeakPaths(AgentRunner.Result r, Pprof paths) {
        int leakPaths = 0;
        for (Pprof.Sample s : paths.samples) {
            List<String> rootFirst = new ArrayList<>(paths.stackNames(s));
            Collections.reverse(rootFirst);
            System.out.println("path: " + String.join(" -> ", rootFirst));
            if (!rootFirst.contains("PathsBudget$Leak.payload")) continue;
            leakPaths++;
            int holder = rootFirst.indexOf("PathsBudget.LEAKED");
            if (holder < 0 || !rootFirst.get(holder + 1).equals("java.util.ArrayList.elementData")) {
                r.fail("the leak's path does not go through the static field LEAKED: " + rootFirst);
            }
            if (rootFirst.get(0).equals("[stack local]") || rootFirst.get(0).equals("[JNI local]")) {
                r.fail("the leak's path starts at a local: " + rootFirst);
            }
        }
        return leakPaths;
    }

    static String line(AgentRunner.Result r, String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line '" + prefix + "...' in: " + text + r.describe()));
    }
}
