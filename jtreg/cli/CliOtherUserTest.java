/*
 * @test
 * @summary Another user's JVMs driven by root's command: a user made for the test runs one
 *          JVM with the agent and one without; root's command loads the second, and gets
 *          status, top and dump -o into a root-only directory (the file is root's) of
 *          both. The same user's command reaches its own JVM (status, dump -o a file that is
 *          the user's) but is refused root's (4).
 *          Root only (skipped otherwise); the user is removed after; nothing is left in /tmp
 * @library /lib
 * @build CliTarget
 * @run driver CliOtherUserTest
 */
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

public class CliOtherUserTest {
    static final List<Path> TMP = List.of(Paths.get("/tmp"));

    public static void main(String[] args) throws Exception {
        Set<Path> before = Cli.leftovers(TMP);
        Cli.asTestUser("hsclitest", (asUser, uid) -> run(asUser, uid, before));
    }

    static void run(List<String> asUser, String uid, Set<Path> before) throws Exception {
        Path dirA = userDirectory("user-agent", uid), dirB = userDirectory("user-bare", uid);
        try (Cli.Target withAgent = Cli.Target.withAgent("interval=16k").prefix(asUser.toArray(String[]::new))
                     .jvmFlags("-Xmx128m");
             Cli.Target bare = Cli.Target.withoutAgent().prefix(asUser.toArray(String[]::new))
                     .jvmFlags("-Xmx128m", "-XX:+EnableDynamicAgentLoading");
             Cli.Target roots = Cli.Target.withAgent("interval=64k").jvmFlags("-Xmx64m")) {
            withAgent.startIn(dirA, "CliTarget");
            bare.startIn(dirB, "CliTarget");
            roots.start("CliTarget");
            Object owner = Files.getAttribute(Paths.get("/proc/" + withAgent.pid()), "unix:uid");
            if (!owner.toString().equals(uid)) throw new AssertionError("the JVM runs as uid " + owner + ", not " + uid);

            Path out = Files.createDirectories(withAgent.dir().resolveSibling("root-only-out"));
            Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwx------"));
            Cli.run("load", bare.pidString(), "interval=16k").assertOk();
            bare.command("retain", "retained");
            for (Cli.Target t : List.of(withAgent, bare)) {
                String pid = t.pidString();
                Cli.run("status", pid).assertOk().assertStdoutContains("state: running");
                Cli.run("top", pid).assertOk().assertFirstRow("CliTarget.retain", "byte[]");
                Path dump = out.resolve("user-" + pid + ".pb.gz");
                Cli.run("dump", pid, "-o", dump.toString()).assertOk();
                Object fileOwner = Files.getAttribute(dump, "unix:uid");
                if (!fileOwner.equals(0)) throw new AssertionError(dump + " belongs to uid " + fileOwner + ", not root");
                heapsampler.Pprof.read(dump).validate();
            }

            // the user's own command: its own JVM yes, root's JVM no
            Cli.runWith(asUser, "status", withAgent.pidString()).assertOk().assertStdoutContains("state: running");
            Path userOut = userDirectory("user-out", uid).resolve("mine.txt");
            Cli.runWith(asUser, "dump", withAgent.pidString(), "-o", userOut.toString()).assertOk();
            Object userFileOwner = Files.getAttribute(userOut, "unix:uid");
            if (!userFileOwner.toString().equals(uid)) throw new AssertionError(userOut + " belongs to uid " + userFileOwner + ", not " + uid);
            if (!Files.readString(userOut).contains("CliTarget.retain")) throw new AssertionError(userOut + " is not the report");
            Cli.runWith(asUser, "status", roots.pidString())
                    .assertFailure(Cli.EXIT_PERMISSION, Duration.ofSeconds(5), roots.pidString());

            withAgent.assertUndisturbed(CliTarget.EXIT_CODE);
            bare.assertUndisturbed(CliTarget.EXIT_CODE);
            roots.assertUndisturbed(CliTarget.EXIT_CODE);
            List<Path> dirs = new ArrayList<>(TMP);
            dirs.addAll(List.of(dirA, dirB, roots.dir()));
            Cli.assertNoLeftovers(before, dirs, withAgent.pid(), bare.pid(), roots.pid());
        }
    }

    /** A working directory owned by the user, as a service's would be. */
    static Path userDirectory(String name, String uid) throws Exception {
        Path dir = heapsampler.AgentRunner.newRunDirectory(name);
        Cli.system("chown", uid, dir.toString());
        return dir;
    }
}
