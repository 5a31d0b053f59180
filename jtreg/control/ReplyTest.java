/*
 * @test
 * @summary The operator's command channel, agent side: commands sent by jcmd with reply=
 *          answer into that file (header line, then the answer or the error, rc=1), never
 *          on the application's stdout; top's first site is the retaining one; dump with
 *          out= writes the format asked (html, text, collapsed, pprof) whatever the startup
 *          format=; paths prints chains; a symlinked reply file is refused; a first attach
 *          with a command word answers "not running", one with options loads and says so
 * @library /lib
 * @build ReplyWorkload
 * @run driver ReplyTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.util.List;

public class ReplyTest {
    static final String HEADER_OK = "heapsampler-reply 1 version=";

    public static void main(String[] args) throws Exception {
        loaded();
        notLoaded();
    }

    static String reply(AgentRunner.Result r, String name, int rc) throws Exception {
        String text = Files.readString(r.file(name));
        String first = text.lines().findFirst().orElse("");
        if (!first.startsWith(HEADER_OK) || !first.endsWith(" rc=" + rc)) {
            r.fail(name + ": header '" + first + "', expected rc=" + rc + "; whole reply:\n" + text);
        }
        return text;
    }

    static void contains(AgentRunner.Result r, String name, String text, String part) {
        if (!text.contains(part)) r.fail(name + " lacks '" + part + "':\n" + text);
    }

    /** The line of rank 1 in a report. */
    static String firstRow(String report) {
        return report.lines().filter(l -> l.matches("\\s*1\\s.*")).findFirst().orElse("");
    }

    static void loaded() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("interval=64k,rate=0,format=pprof,file=exit.pb.gz")
                .jvmFlags("-Xmx256m", "-XX:+UseG1GC")
                .label("reply-loaded")
                .run("ReplyWorkload", AgentRunner.agentLibrary().toString(), "loaded");
        r.assertNoCrash().assertExitCode(ReplyWorkload.EXIT_CODE);
        for (String ok : List.of("top", "top-growth", "top-alloc", "status", "dump-html", "dump-text",
                "dump-collapsed", "dump-pprof", "paths", "help")) {
            r.assertStdoutContains("OK " + ok);
        }
        for (String refused : List.of("bad-n", "bogus", "missing-out", "symlink")) {
            r.assertStdoutContains("REFUSED " + refused);
        }
        // nothing of the answers on the application's stdout; errors not on its stderr
        r.assertStdoutLacks("heapsampler");
        if (r.stderr.contains("bad command") || r.stderr.contains("no-such-dir")) {
            r.fail("a command's own error reached the application's stderr");
        }

        String top = reply(r, "top.reply", 0);
        String row = firstRow(top);
        contains(r, "top.reply first row", row, "ReplyWorkload.retain:");
        contains(r, "top.reply first row", row, "→ byte[]");
        contains(r, "top.reply", top, "± is one standard error");
        contains(r, "top.reply", top, "heap: ");
        // the retained arrays: 30 MB, within the report's own ± (read from the row) and 10 %
        String inuse = row.trim().split("\\s+")[1] + " " + row.trim().split("\\s+")[2];
        double mib = parseMiB(inuse);
        double expected = ReplyWorkload.RETAINED_COUNT * (double) (ReplyWorkload.RETAINED_SIZE + 16) / (1 << 20);
        if (Math.abs(mib - expected) > 0.2 * expected) {
            r.fail("top: the retained site holds " + inuse + ", expected about " + expected + " MiB:\n" + top);
        }
        if (top.lines().filter(l -> l.matches("\\s*\\d+\\s.*→.*")).count() > 5) r.fail("top,n=5 showed more:\n" + top);

        // growing before every GC: a suspect, marked, and first by growth
        String growth = reply(r, "top-growth.reply", 0);
        contains(r, "top-growth.reply", growth, "sites by growth");
        String growing = firstRow(growth);
        contains(r, "top-growth.reply first row", growing, "ReplyWorkload.retain:");
        if (!growing.matches(".*\\s\\+\\d.*")) r.fail("the growing site has no growth mark:\n" + growth);
        if (!row.matches(".*\\s\\+\\d.*")) r.fail("top: the growing site has no growth mark:\n" + top);

        String alloc = reply(r, "top-alloc.reply", 0);
        contains(r, "top-alloc.reply", alloc, "sites by allocated bytes");
        contains(r, "top-alloc.reply", alloc, "      at ");
        for (String line : alloc.lines().toList()) {
            if (line.codePointCount(0, line.length()) > 60) r.fail("width=60 exceeded: '" + line + "'");
        }

        String status = reply(r, "status.reply", 0);
        contains(r, "status.reply", status, "\nstate: running\n");
        contains(r, "status.reply", status, "\nversion: ");
        contains(r, "status.reply", status, "\noptions: interval=65536,");

        contains(r, "dump-html.reply", reply(r, "dump-html.reply", 0), "dump written to " + r.file("dump.html"));
        if (!Files.readString(r.file("dump.html")).startsWith("<!DOCTYPE html>")) r.fail("dump.html is no HTML page");
        reply(r, "dump-text.reply", 0);
        String text = Files.readString(r.file("dump.txt"));
        contains(r, "dump.txt", text, "heapsampler ");
        contains(r, "dump.txt", firstRow(text), "ReplyWorkload.retain:");
        reply(r, "dump-collapsed.reply", 0);
        String collapsed = Files.readString(r.file("dump.collapsed"));
        if (!collapsed.lines().allMatch(l -> l.matches(".*;?\\S+ \\d+")) || !collapsed.contains("ReplyWorkload.retain")) {
            r.fail("dump.collapsed is not collapsed stacks:\n" + collapsed);
        }
        reply(r, "dump-pprof.reply", 0);
        Pprof.read(r.file("dump.pb.gz")).validate();

        String paths = reply(r, "paths.reply", 0);
        contains(r, "paths.reply", paths, "site 1: ReplyWorkload.retain:");
        if (!paths.contains("  path:\n") && !paths.contains("  path (the same for ")) {
            r.fail("paths.reply has no chain:\n" + paths); // identical chains are folded, with a count
        }
        contains(r, "paths.reply", paths, "byte[]   (the object");
        contains(r, "paths.reply", paths, "paths written to " + r.file("paths.pb.gz"));
        Pprof.read(r.file("paths.pb.gz")).validate();
        contains(r, "help.reply", reply(r, "help.reply", 0), "top[,n=N][,by=inuse|alloc|growth|class]");

        contains(r, "bad-n.reply", reply(r, "bad-n.reply", 1), "bad command 'top,n=0,reply=");
        contains(r, "bad-n.reply", reply(r, "bad-n.reply", 1), "n=0: not a number of rows from 1 to 1000");
        contains(r, "bogus.reply", reply(r, "bogus.reply", 1), "unknown command");
        contains(r, "missing-out.reply", reply(r, "missing-out.reply", 1), "out file '");
        // the symlink: one stderr line, the target untouched
        r.assertStderrContains("heapsampler: reply file '" + r.file("link.reply"));
        if (!Files.readString(r.file("target.txt")).equals("keep\n")) r.fail("the symlink's target was written");
    }

    static double parseMiB(String size) {
        String[] parts = size.split(" ");
        double v = Double.parseDouble(parts[0]);
        return switch (parts[1]) {
            case "KiB" -> v / 1024;
            case "MiB" -> v;
            case "GiB" -> v * 1024;
            default -> v / (1 << 20);
        };
    }

    static void notLoaded() throws Exception {
        AgentRunner.Result r = AgentRunner.withoutAgent()
                .jvmFlags("-XX:+EnableDynamicAgentLoading", "-Xmx256m")
                .label("reply-not-loaded")
                .run("ReplyWorkload", AgentRunner.agentLibrary().toString(), "not-loaded");
        r.assertNoCrash().assertExitCode(ReplyWorkload.EXIT_CODE);
        r.assertStdoutContains("REFUSED status-before-load");
        r.assertStdoutContains("REFUSED load-bad");
        r.assertStdoutContains("OK load");
        r.assertStdoutContains("OK status-after-load");
        r.assertStdoutLacks("heapsampler");
        contains(r, "not-loaded.reply", reply(r, "not-loaded.reply", 1), "heapsampler is not running in this JVM");
        contains(r, "load-bad.reply", reply(r, "load-bad.reply", 1), "bad option 'interval=lots': not a size");
        String load = reply(r, "load.reply", 0);
        contains(r, "load.reply", load, "\nloaded\n");
        contains(r, "load.reply", load, "\noptions: interval=65536,file=loaded.pb.gz,");
        contains(r, "status.reply", reply(r, "status.reply", 0), "\nstate: running\n");
        Pprof.read(r.file("loaded.pb.gz")).validate();
    }
}
