/*
 * ReplyWorkload: a program that asks heapsampler questions the way the operator's command
 * does, through jcmd (JVMTI.agent_load), each answered into a file created beforehand
 * (mode 0600) in the run directory: reply=, out=. Prints only "OK <step>" / "REFUSED
 * <step>" lines (whether jcmd succeeded); the test reads the files. Retains RETAINED_COUNT
 * arrays of RETAINED_SIZE bytes from retain(), in STEPS steps each before a GC: the site the
 * report must put first, and a growing one.
 *
 *   ReplyWorkload <library> loaded       the agent was loaded at startup: every command
 *   ReplyWorkload <library> not-loaded   no agent yet: a command, then a load with reply=
 */
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

public class ReplyWorkload {
    static final int EXIT_CODE = 7;
    static final int RETAINED_COUNT = 3000;
    static final int RETAINED_SIZE = 10_000;
    static final int STEPS = 6;
    static final List<byte[]> retained = new ArrayList<>();
    static volatile Object sink;
    static String library;

    public static void main(String[] args) throws Exception {
        library = args[0];
        switch (args[1]) {
            case "loaded" -> loaded();
            case "not-loaded" -> notLoaded();
            default -> throw new IllegalArgumentException(args[1]);
        }
        System.out.flush();
        System.exit(EXIT_CODE);
    }

    static void retain(int count) {
        for (int i = 0; i < count; i++) retained.add(new byte[RETAINED_SIZE]);
    }

    static void churn(int n) {
        for (int i = 0; i < n; i++) sink = new int[250];
    }

    /** An empty file for an answer, as the operator's command makes it. */
    static Path answerFile(String name) throws Exception {
        Path file = Path.of(name).toAbsolutePath();
        Files.deleteIfExists(file);
        return Files.createFile(file, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
    }

    /** jcmd <pid> JVMTI.agent_load <library> "<command>"; OK when jcmd says return code 0. */
    static void jcmd(String step, String command) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(ProcessHandle.current().pid()),
                "JVMTI.agent_load", library, "\"" + command + "\"").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        boolean ok = done && p.exitValue() == 0 && out.contains("return code: 0");
        System.out.println((ok ? "OK " : "REFUSED ") + step);
        System.out.flush();
    }

    static String at(String name) throws Exception {
        return answerFile(name).toString();
    }

    static void loaded() throws Exception {
        for (int step = 0; step < STEPS; step++) { // grows by a share before each GC
            retain(RETAINED_COUNT / STEPS);
            churn(100_000);
            System.gc();
            Thread.sleep(100); // lets the agent's sweeper record this GC
        }
        // width=200: no column dropped for a long class name among the five (JDK-internal
        // sites of the jcmd calls come and go with sampling): the growth column is checked
        jcmd("top", "top,n=5,width=200,reply=" + at("top.reply"));
        jcmd("top-growth", "top,n=3,by=growth,reply=" + at("top-growth.reply"));
        jcmd("top-alloc", "top,n=3,by=alloc,width=60,stack=true,reply=" + at("top-alloc.reply"));
        jcmd("status", "status,reply=" + at("status.reply"));
        jcmd("dump-html", "dump,format=html,out=" + at("dump.html") + ",reply=" + at("dump-html.reply"));
        jcmd("dump-text", "dump,format=text,out=" + at("dump.txt") + ",reply=" + at("dump-text.reply"));
        jcmd("dump-collapsed", "dump,format=collapsed,out=" + at("dump.collapsed") + ",reply="
                + at("dump-collapsed.reply"));
        jcmd("dump-pprof", "dump,out=" + at("dump.pb.gz") + ",reply=" + at("dump-pprof.reply"));
        jcmd("paths", "paths,n=1,out=" + at("paths.pb.gz") + ",reply=" + at("paths.reply"));
        jcmd("help", "help,reply=" + at("help.reply"));
        // errors: in the reply, rc=1
        jcmd("bad-n", "top,n=0,reply=" + at("bad-n.reply"));
        jcmd("bogus", "bogus,reply=" + at("bogus.reply"));
        jcmd("missing-out", "dump,out=" + Path.of("no-such-dir/x.html").toAbsolutePath()
                + ",reply=" + at("missing-out.reply"));
        // a reply file that is a symlink: refused, the target untouched
        Path target = answerFile("target.txt");
        Files.writeString(target, "keep\n");
        Path link = Path.of("link.reply").toAbsolutePath();
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, target);
        jcmd("symlink", "status,reply=" + link);
    }

    static void notLoaded() throws Exception {
        jcmd("status-before-load", "status,reply=" + at("not-loaded.reply"));
        jcmd("load-bad", "interval=lots,reply=" + at("load-bad.reply")); // not loaded: bad option
        jcmd("load", "interval=64k,file=loaded.pb.gz,reply=" + at("load.reply"));
        retain(RETAINED_COUNT);
        churn(10_000);
        System.gc();
        jcmd("status-after-load", "status,reply=" + at("status.reply"));
    }
}
