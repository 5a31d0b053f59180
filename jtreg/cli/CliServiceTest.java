/*
 * @test
 * @summary A JVM run as a packaged service is: as a user made for the test, its working
 *          directory root-owned (not writable by it, as Debian's tomcat10 in /var/lib/tomcat10),
 *          its java.io.tmpdir its own. Root's heapsampler load works (no exit file into the
 *          working directory: the answer says the exit profile goes to the temp directory),
 *          then top, profile -d -o x.html, top --by class, top --json. A command that gives up
 *          because the JVM was stopped (kill -STOP) after its request was sent adds nothing to
 *          the JVM's stdout or stderr once it is resumed, and status counts it as late. At exit the profile is in the temp
 *          directory. Root only (skipped otherwise); the user is removed after
 * @library /lib
 * @build CliTarget Hostile
 * @run driver CliServiceTest
 */
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

public class CliServiceTest {
    static final List<Path> TMP = List.of(Paths.get("/tmp"));

    public static void main(String[] args) throws Exception {
        Set<Path> before = Cli.leftovers(TMP);
        Cli.asTestUser("hssvctest", (asUser, uid) -> run(asUser, uid, before));
    }

    static void run(List<String> asUser, String uid, Set<Path> before) throws Exception {
        // the service's home: root's, 0755, as /var/lib/tomcat10; its temp directory: its own
        Path home = heapsampler.AgentRunner.newRunDirectory("service-home");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tmpdir = heapsampler.AgentRunner.newRunDirectory("service-tmp");
        Cli.system("chown", uid, tmpdir.toString());
        Path out = Files.createDirectories(home.resolveSibling(home.getFileName() + "-out"));
        try (Cli.Target t = Cli.Target.withoutAgent().prefix(asUser.toArray(String[]::new))
                .jvmFlags("-Xmx128m", "-XX:+EnableDynamicAgentLoading", "-Djava.io.tmpdir=" + tmpdir)) {
            t.startIn(home, "CliTarget");
            String pid = t.pidString();
            Path exit = tmpdir.resolve("heapsampler-" + pid + ".pb.gz");
            Cli.run("load", pid).assertOk().assertStdoutContains("exit profile: " + exit);
            t.command("retain", "retained");
            Cli.run("top", pid).assertOk().assertFirstRow("CliTarget.retain", "byte[]");
            Path html = out.resolve("x.html");
            Cli.run("profile", pid, "-d", "2s", "-o", html.toString()).assertOk().assertStdoutContains("left running");
            if (!Files.readString(html).contains("<html")) throw new AssertionError(html + " is not the flame graph");
            Cli.run("top", pid, "--by", "class").assertOk().assertFirstRow("byte[]");
            String name = Cli.jsonQuery(Cli.run("top", pid, "--json").assertOk().stdout, "d['rows'][0]['name']");
            if (!name.startsWith("CliTarget.retain:")) throw new AssertionError("top --json: row 1 is " + name);
            lateCommand(t);
            t.assertUndisturbed(CliTarget.EXIT_CODE);
            if (t.stderr().contains("heapsampler")) throw new AssertionError("a line in the JVM's stderr\n" + t.describe());
            if (!Files.exists(exit)) throw new AssertionError("no exit profile " + exit);
            heapsampler.Pprof.read(exit).validate();
            try (var files = Files.list(home)) {
                List<String> names = files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("heapsampler"))
                        .collect(Collectors.toList());
                if (!names.isEmpty()) throw new AssertionError("written into the JVM's working directory: " + names);
            }
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp"), home, tmpdir), t.pid());
        }
    }

    /**
     * A command paused after making its files (before it connects), kill -STOP, the command
     * resumed: it sends its request to the stopped JVM, sees it stopped and gives up, removing
     * its reply file (a JVM stopped before the command starts is refused before anything is
     * sent, so this is how a request comes to arrive late). kill -CONT: the JVM then reads
     * the command, finds its reply file gone, runs nothing and prints nothing; status counts it.
     */
    static void lateCommand(Cli.Target t) throws Exception {
        String pid = t.pidString();
        Hostile.Paused paused = Hostile.pause("attach", "top", pid, "--timeout", "10s");
        Cli.system("kill", "-STOP", pid);
        try {
            paused.resume().finish().assertFailure(Cli.EXIT_TIMEOUT, Duration.ofSeconds(10), "is stopped");
        } finally {
            Cli.system("kill", "-CONT", pid);
        }
        long deadline = System.nanoTime() + 15_000_000_000L;
        Pattern counted = Pattern.compile("(?m)^late commands: [1-9]");
        while (!counted.matcher(Cli.run("status", pid).assertOk().stdout).find()) {
            if (System.nanoTime() > deadline) throw new AssertionError("status never counted the late command\n" + t.describe());
            Thread.sleep(200);
        }
    }
}
