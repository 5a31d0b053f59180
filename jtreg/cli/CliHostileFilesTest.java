/*
 * @test
 * @summary The command as root against a JVM whose user is hostile (a user made for the
 *          test, the agent loaded at startup): each swap the user can make between two of
 *          the command's steps (made deterministic by HEAPSAMPLER_TEST_FAULTS=cli_stop_at)
 *          ends with the command refusing in one line, within a bound far below --timeout,
 *          without reading a root-only file, without writing the operator's file: the reply
 *          file swapped for a symbolic link to a root-only file, for a FIFO; the dump's
 *          output for a FIFO, for a 1 TiB sparse file, for a hard link to a root-only file
 *          (made by root here: protected_hardlinks=1 stops the user, not a system with 0);
 *          .java_pidN replaced by the user's own socket (no byte sent to it). A class
 *          named with an OSC sequence is shown escaped by top. A stopped JVM is told at
 *          once (before and while waiting). A pid that exits and is reused by a root process
 *          between inspection and SIGQUIT is not signalled. Nothing is left in /tmp
 * @library /lib
 * @build CliTarget HostileTarget FakeAttachListener Hostile
 * @run driver CliHostileFilesTest
 */
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Set;

public class CliHostileFilesTest {
    static final Path TMP = Paths.get("/tmp");
    static final String TIMEOUT = "30s";

    public static void main(String[] args) throws Exception {
        try (Hostile user = Hostile.create("files")) {
            Set<Path> before = Cli.leftovers(List.of(TMP));
            Path out = Files.createDirectories(heapsampler.AgentRunner.newRunDirectory("root-only-out"));
            Cli.system("chmod", "0700", out.toString());
            // the operator's directory is a small tmpfs: a copy that should not happen cannot fill the disk
            Cli.system("mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", out.toString());
            Hostile.Secret secret = new Hostile.Secret(TMP.resolve("hs-secret-" + ProcessHandle.current().pid()),
                    "heapsampler-reply 1 version=" + version() + " rc=0\nROOT-ONLY SECRET\n");
            Hostile.Attacks attacks = new Hostile.Attacks();
            try (Cli.Target t = Cli.Target.withAgent("interval=16k").prefix(user.prefix()).jvmFlags("-Xmx128m")) {
                t.classPath(System.getProperty("test.class.path")).startIn(user.directory("hostile"), "HostileTarget");
                String pid = t.pidString();
                attacks.run("a class name with ESC c, an 8-bit CSI, BEL and CR", () -> escapedClassName(pid));
                attacks.run("the reply file swapped for a symbolic link to a root-only file", () -> replyLink(user, pid, secret, false));
                attacks.run("the same, paths walked as without openat2", () -> replyLink(user, pid, secret, true));
                attacks.run("the reply file swapped for a FIFO", () -> replyFifo(user, pid));
                attacks.run("the dump's output swapped for a FIFO",
                        () -> outputSwapped(user, pid, out, "rm -f %1$s && mkfifo %1$s", "a FIFO, not a regular file"));
                attacks.run("the dump's output swapped for a 1 TiB sparse file",
                        () -> outputSwapped(user, pid, out, "rm -f %1$s && truncate -s 1T %1$s", "1 TiB, over the", "limit"));
                attacks.run("the dump's output swapped for a hard link to a root-only file", () -> outputHardLink(pid, out, secret));
                attacks.run(".java_pidN replaced by the user's socket", () -> fakeSocket(user, t));
                attacks.run("a stopped JVM", () -> stoppedBefore(t));
                attacks.run("a JVM stopped while the command asks it", () -> stoppedWhileAsking(t));
                attacks.run("the pid exits and is reused by root before SIGQUIT", () -> pidReuse(t));
            } finally {
                Cli.system("umount", out.toString());
                Files.deleteIfExists(secret.path);
            }
            attacks.assertAllRefused();
            Cli.assertNoLeftovers(before, List.of(TMP));
        }
    }

    static String version() throws Exception {
        return Hostile.run("--version").assertOk().stdout.trim().replaceAll(".* ", "");
    }

    /** top: the retaining site's class has ESC c, an 8-bit CSI, BEL and CR in its name: shown as \xNN. */
    static void escapedClassName(String pid) throws Exception {
        Cli.Result r = Hostile.run("top", pid, "-n", "3");
        Hostile.assertNoControlBytes(r);
        r.assertOk().assertStdoutContains("Evil\\x1bc\\xc2\\x9b2J\\x07\\x0dClassName");
    }

    /** The reply file, swapped after the agent answered and before the command reads it. */
    static void replyLink(Hostile user, String pid, Hostile.Secret secret, boolean walk) throws Exception {
        String[] args = {"status", pid, "--timeout", TIMEOUT};
        Hostile.Paused p = walk ? Hostile.pauseWalking("read_reply", args) : Hostile.pause("read_reply", args);
        Path reply = Hostile.theFile(TMP, ".heapsampler-" + pid + "-*.reply");
        user.sh("rm -f " + reply + " && ln -s " + secret.path + " " + reply);
        Cli.Result r = p.resume().finish();
        secret.assertUnread(r);
        r.assertFailure(Cli.EXIT_AGENT_ERROR, Hostile.QUICK, "symbolic link", "refusing");
    }

    static void replyFifo(Hostile user, String pid) throws Exception {
        Hostile.Paused p = Hostile.pause("read_reply", "status", pid, "--timeout", TIMEOUT);
        Path reply = Hostile.theFile(TMP, ".heapsampler-" + pid + "-*.reply");
        user.sh("rm -f " + reply + " && mkfifo " + reply);
        Hostile.assertQuick(p.resume().finish()).assertFailure(Cli.EXIT_AGENT_ERROR, Hostile.QUICK, "a FIFO, not a regular file", "refusing");
    }

    /** The dump's output file, swapped (the shell command's %1$s) after the agent wrote it and
     * before the command reads it: refused with the words given, nothing in the operator's directory. */
    static void outputSwapped(Hostile user, String pid, Path out, String swap, String... words) throws Exception {
        Path dump = out.resolve("heap.pb.gz");
        Hostile.Paused p = Hostile.pause("read_outputs", "dump", pid, "-o", dump.toString(), "--timeout", TIMEOUT);
        Path output = Hostile.theFile(TMP, ".heapsampler-" + pid + "-*.out");
        user.sh(String.format(swap, output));
        Cli.Result r = Hostile.assertQuick(p.resume().finish());
        assertEmpty(out, r);
        r.assertFailure(Cli.EXIT_AGENT_ERROR, Hostile.QUICK, words);
    }

    static void outputHardLink(String pid, Path out, Hostile.Secret secret) throws Exception {
        Path dump = out.resolve("heap.pb.gz");
        Hostile.Paused p = Hostile.pause("read_outputs", "dump", pid, "-o", dump.toString(), "--timeout", TIMEOUT);
        Path output = Hostile.theFile(TMP, ".heapsampler-" + pid + "-*.out");
        Cli.system("rm", "-f", output.toString()); // root makes the link: protected_hardlinks=1 here
        Cli.system("ln", secret.path.toString(), output.toString());
        try {
            Cli.Result r = p.resume().finish();
            assertEmpty(out, r);
            secret.assertUnread(r);
            r.assertFailure(Cli.EXIT_AGENT_ERROR, Hostile.QUICK, "the agent's output");
        } finally {
            Files.deleteIfExists(output); // root's link in sticky /tmp: the command, as the user, cannot remove it
        }
        Hostile.run("dump", pid, "-o", dump.toString(), "--timeout", TIMEOUT).assertOk(); // and undisturbed, it works
        Files.delete(dump);
    }

    static void assertEmpty(Path dir, Cli.Result r) throws Exception {
        try (var files = Files.list(dir)) {
            List<Path> left = files.toList();
            if (!left.isEmpty()) r.fail("the operator's directory got " + left);
        }
    }

    /** .java_pidN replaced by a socket of the user's: refused by its peer, not a byte sent. */
    static void fakeSocket(Hostile user, Cli.Target t) throws Exception {
        Path socket = TMP.resolve(".java_pid" + t.pid());
        if (!Files.exists(socket)) throw new AssertionError(socket + " should exist after the commands above");
        Path log = user.directory("fake-listener").resolve("received");
        user.sh("rm -f " + socket);
        Process fake = user.spawn("listening", Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("test.class.path"), "FakeAttachListener", socket.toString(), log.toString());
        try {
            Cli.Result r = Hostile.run("status", t.pidString(), "--timeout", TIMEOUT);
            if (Files.size(log) != 0) r.fail("the attach request reached the user's socket: " + Files.readString(log));
            Hostile.assertNoControlBytes(r);
            r.assertFailure(Cli.EXIT_ATTACH, Hostile.QUICK, "not by the JVM", "refusing");
        } finally {
            fake.destroyForcibly().waitFor();
            Files.deleteIfExists(socket);
        }
    }

    /** A stopped JVM with the agent loaded and its attach listener running: told at once,
     * not after --timeout. */
    static void stoppedBefore(Cli.Target t) throws Exception {
        String pid = t.pidString();
        Hostile.run("status", pid, "--timeout", TIMEOUT).assertOk(); // the listener runs (again, after the fake socket)
        Cli.system("kill", "-STOP", pid);
        try {
            Hostile.assertQuick(Hostile.run("top", pid, "--timeout", TIMEOUT))
                    .assertFailure(Cli.EXIT_TIMEOUT, Hostile.QUICK, "is stopped", "kill -CONT");
        } finally {
            Cli.system("kill", "-CONT", pid);
        }
    }

    /** A JVM stopped while the command asks it: told within a moment of it. */
    static void stoppedWhileAsking(Cli.Target t) throws Exception {
        String pid = t.pidString();
        Hostile.Paused p = Hostile.pause("attach", "top", pid, "--timeout", TIMEOUT);
        Cli.system("kill", "-STOP", pid);
        try {
            while (Hostile.state(t.pid()) != 'T') Thread.sleep(10);
            Hostile.assertQuick(p.resume().finish()).assertFailure(Cli.EXIT_TIMEOUT, Hostile.QUICK, "is stopped");
        } finally {
            Cli.system("kill", "-CONT", pid);
        }
    }

    /**
     * The JVM exits while the command is about to send SIGQUIT, and its pid goes to a root
     * process (ns_last_pid; a sleep that does not ignore SIGQUIT, as a background job of sh
     * would): the command must see the exit, and the root process live on.
     */
    static void pidReuse(Cli.Target t) throws Exception {
        long pid = t.pid();
        String app = t.stdout();
        if (app.contains("heapsampler") || app.contains("Full thread dump")) {
            throw new AssertionError("the command wrote into the application's output\n" + t.describe());
        }
        Files.deleteIfExists(TMP.resolve(".java_pid" + pid)); // so that the next command signals
        Hostile.Paused p = Hostile.pause("signal", "status", Long.toString(pid), "--timeout", TIMEOUT);
        Cli.system("kill", "-KILL", Long.toString(pid));
        t.stop();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (Files.exists(Paths.get("/proc", Long.toString(pid))) && System.nanoTime() < deadline) Thread.sleep(10);
        String reused = Cli.system("sh", "-c", "for i in $(seq 200); do echo " + (pid - 1)
                + " > /proc/sys/kernel/ns_last_pid; env --default-signal=QUIT sleep 300 & if [ $! = " + pid + " ]; then echo $!; exit 0; fi;"
                + " kill $!; done; echo none").trim();
        if (reused.equals("none")) throw new AssertionError("could not make pid " + pid + " reused in 200 tries");
        try {
            Cli.Result r = p.resume().finish();
            if (Hostile.state(pid) == '?' || Hostile.state(pid) == 'Z') r.fail("the process that reused pid " + pid + " was killed");
            r.assertFailure(Cli.EXIT_NO_PROCESS, Hostile.QUICK, "exited");
        } finally {
            Cli.system("kill", "-KILL", reused);
        }
    }
}
