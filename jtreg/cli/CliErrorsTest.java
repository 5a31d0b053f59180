/*
 * @test
 * @summary Bad input and bad days of the operator's command, each with its own exit code,
 *          one "heapsampler: ..." line on stderr and a bounded time: an unknown verb or
 *          flag and a pid that is not a number (1), a pid that does not exist (2), a process
 *          that is not a JVM (3, and it lives on), an agent of another version (8), a JVM with -XX:+DisableAttachMechanism,
 *          agent loaded at startup or not (5 at once, also for top without the agent: load cannot help; its output
 *          untouched), a stopped JVM (6 at once, saying so, not after --timeout 20s), status without
 *          the agent (7), a bad option to load (9, the agent's message), an existing output
 *          file without --force (10), a full disk (11, root only), load when loaded (12).
 *          No file is left behind, and the applications keep their exit codes
 * @library /lib
 * @build CliTarget
 * @run driver CliErrorsTest
 */
import heapsampler.Cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

public class CliErrorsTest {
    /** Failures that need no waiting are quick; the rest are bounded by --timeout. */
    static final Duration QUICK = Duration.ofSeconds(5);
    static final Duration BOUND = Duration.ofSeconds(20);
    static final List<Path> TMP = List.of(Paths.get("/tmp"));

    public static void main(String[] args) throws Exception {
        Set<Path> before = Cli.leftovers(TMP);
        usage();
        noSuchProcess();
        long sleepPid = notAJvm();

        try (Cli.Target loaded = Cli.Target.withAgent("interval=64k").jvmFlags("-Xmx64m");
             Cli.Target bare = Cli.Target.withoutAgent().jvmFlags("-Xmx64m", "-XX:+EnableDynamicAgentLoading");
             Cli.Target closed = Cli.Target.withAgent("interval=64k").jvmFlags("-Xmx64m", "-XX:+DisableAttachMechanism");
             Cli.Target closedBare = Cli.Target.withoutAgent().jvmFlags("-Xmx64m", "-XX:+DisableAttachMechanism");
             Cli.Target other = Cli.Target.withoutAgent().jvmFlags("-Xmx64m")) {
            loaded.start("CliTarget");
            bare.start("CliTarget");
            closed.start("CliTarget");
            closedBare.start("CliTarget");
            other.jvmFlags("-agentpath:" + otherVersion(other)).start("CliTarget");
            Cli.run("status", other.pidString()).assertFailure(Cli.EXIT_VERSION, BOUND, "9.9.9");

            // attach refused: the agent is there but cannot be asked; or cannot be loaded
            Cli.run("status", closed.pidString()).assertFailure(Cli.EXIT_ATTACH, BOUND, closed.pidString());
            Cli.run("top", closed.pidString()).assertFailure(Cli.EXIT_ATTACH, BOUND, closed.pidString());
            Cli.run("load", closedBare.pidString()).assertFailure(Cli.EXIT_ATTACH, BOUND, closedBare.pidString());
            Cli.run("top", closedBare.pidString()).assertFailure(Cli.EXIT_ATTACH, QUICK, "DisableAttachMechanism");

            Cli.run("status", bare.pidString()).assertFailure(Cli.EXIT_NOT_LOADED, BOUND, "not loaded");
            Cli.run("top", bare.pidString()).assertFailure(Cli.EXIT_NOT_LOADED, BOUND, "not loaded");
            Cli.run("load", bare.pidString(), "interval=lots")
                    .assertFailure(Cli.EXIT_AGENT_ERROR, BOUND, "interval=lots");

            Cli.run("load", loaded.pidString()).assertFailure(Cli.EXIT_ALREADY_LOADED, BOUND, "already loaded");
            outputExists(loaded);
            fullDisk(loaded);
            timeout(loaded);
            Cli.run("status", loaded.pidString()).assertOk().assertStdoutContains("state: running");

            loaded.assertUndisturbed(CliTarget.EXIT_CODE);
            bare.assertUndisturbed(CliTarget.EXIT_CODE);
            closed.assertUndisturbed(CliTarget.EXIT_CODE);
            closedBare.assertUndisturbed(CliTarget.EXIT_CODE);
            other.assertUndisturbed(CliTarget.EXIT_CODE);
            List<Path> dirs = new ArrayList<>(TMP);
            dirs.addAll(List.of(loaded.dir(), bare.dir(), closed.dir(), closedBare.dir(), other.dir()));
            Cli.assertNoLeftovers(before, dirs, loaded.pid(), bare.pid(), closed.pid(), closedBare.pid(), other.pid(), sleepPid);
        }
    }

    /** A copy of the agent whose version string says 9.9.9 (the same length as ours). */
    static Path otherVersion(Cli.Target t) throws Exception {
        String ours = Cli.run("--version").assertOk().stdout.trim().replaceAll(".* ", "");
        byte[] lib = Files.readAllBytes(heapsampler.AgentRunner.agentLibrary());
        byte[] from = ours.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] to = ours.replaceAll("[0-9]", "9").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        if (!ours.replaceAll("[0-9]", "9").equals("9.9.9")) throw new AssertionError("version " + ours + " is not N.N.N");
        int patched = 0;
        for (int i = 0; i + from.length <= lib.length; i++) {
            if (java.util.Arrays.equals(lib, i, i + from.length, from, 0, from.length) && lib[i + from.length] == 0) {
                System.arraycopy(to, 0, lib, i, to.length);
                patched++;
            }
        }
        if (patched != 1) throw new AssertionError("the version string " + ours + " is in the library " + patched + " times");
        Path dir = Files.createDirectories(heapsampler.AgentRunner.newRunDirectory("other-version"));
        return Files.write(dir.resolve("libheapsampler.so"), lib);
    }

    static void usage() throws Exception {
        Cli.run("frobnicate", "1").assertFailure(Cli.EXIT_USAGE, QUICK, "frobnicate");
        Cli.run("status", "12ab").assertFailure(Cli.EXIT_USAGE, QUICK, "12ab");
        Cli.run("status", "-5").assertFailure(Cli.EXIT_USAGE, QUICK);
        Cli.run("status").assertFailure(Cli.EXIT_USAGE, QUICK);
        Cli.run("top", "1", "--frobnicate").assertFailure(Cli.EXIT_USAGE, QUICK, "--frobnicate");
        Cli.run("top", "1", "--by", "colour").assertFailure(Cli.EXIT_USAGE, QUICK, "colour");
        Cli.run("dump", "1").assertFailure(Cli.EXIT_USAGE, QUICK, "-o");
        Cli.run("status", "1", "--timeout", "soon").assertFailure(Cli.EXIT_USAGE, QUICK, "soon");
    }

    static void noSuchProcess() throws Exception {
        long max = Long.parseLong(Cli.readProc(Paths.get("/proc/sys/kernel/pid_max")).trim());
        long pid = max - 1;
        while (Files.exists(Paths.get("/proc/" + pid))) pid--;
        String p = Long.toString(pid);
        Cli.run("status", p).assertFailure(Cli.EXIT_NO_PROCESS, QUICK, p);
        Cli.run("load", p).assertFailure(Cli.EXIT_NO_PROCESS, QUICK, p);
    }

    /** sleep is no JVM: refused without a signal, so it is still alive after. */
    static long notAJvm() throws Exception {
        Process sleep = new ProcessBuilder(Cli.requireTool("sleep").toString(), "60").start();
        try {
            String p = Long.toString(sleep.pid());
            Cli.run("status", p).assertFailure(Cli.EXIT_NOT_JVM, QUICK, p);
            Cli.run("load", p).assertFailure(Cli.EXIT_NOT_JVM, QUICK, p);
            if (!sleep.isAlive()) throw new AssertionError("sleep died of the command: exit " + sleep.exitValue());
            return sleep.pid();
        } finally {
            sleep.destroy();
            sleep.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** An existing file is refused without --force, kept as it was; --force replaces it. */
    static void outputExists(Cli.Target t) throws Exception {
        Path out = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-out"));
        Path existing = Files.writeString(out.resolve("mine.pb.gz"), "precious");
        Cli.run("dump", t.pidString(), "-o", existing.toString())
                .assertFailure(Cli.EXIT_FILE_EXISTS, BOUND, "--force");
        if (!Files.readString(existing).equals("precious")) throw new AssertionError("the existing file was changed");
        Cli.run("dump", t.pidString(), "-o", existing.toString(), "--force").assertOk();
        heapsampler.Pprof.read(existing).validate();
        assertOnly(out, "mine.pb.gz");
    }

    /** A 64k tmpfs, filled: the dump fails with 11 and leaves nothing there. Root only. */
    static void fullDisk(Cli.Target t) throws Exception {
        if (!Cli.isRoot()) {
            System.out.println("skipped the full-disk case: mounting a tmpfs needs root");
            return;
        }
        Path full = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-full"));
        Cli.system("mount", "-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs", full.toString());
        try {
            Path filler = full.resolve("filler");
            try (var os = Files.newOutputStream(filler)) {
                byte[] block = new byte[4096];
                for (int i = 0; i < 1000; i++) os.write(block);
                throw new AssertionError("a 64k tmpfs took 4 MB");
            } catch (IOException expected) {
                System.out.println("filled " + full + ": " + expected.getMessage());
            }
            for (String name : List.of("x.pb.gz", "x.html")) {
                Cli.run("dump", t.pidString(), "-o", full.resolve(name).toString())
                        .assertFailure(Cli.EXIT_WRITE, BOUND, name);
            }
            assertOnly(full, "filler");
        } finally {
            Cli.system("umount", full.toString());
        }
    }

    /** A stopped JVM cannot answer: told at once (6), not after --timeout 20s. */
    static void timeout(Cli.Target t) throws Exception {
        Cli.system("kill", "-STOP", t.pidString());
        try {
            awaitStopped(t.pid());
            Cli.run("status", t.pidString(), "--timeout", "20s")
                    .assertFailure(Cli.EXIT_TIMEOUT, QUICK, "stopped", "kill -CONT");
        } finally {
            Cli.system("kill", "-CONT", t.pidString());
        }
    }

    /* kill returns once SIGSTOP is queued; the JVM's threads stop when each is scheduled,
     * which on a loaded machine can be after a command already reached the attach listener. */
    static void awaitStopped(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!allThreadsStopped(pid)) {
            if (System.nanoTime() > deadline) throw new AssertionError("process " + pid + " did not stop within 10 s");
            Thread.sleep(10);
        }
    }

    static boolean allThreadsStopped(long pid) throws IOException {
        try (var tasks = Files.list(Paths.get("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                String stat = Cli.readProc(task.resolve("stat"));
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if (state != 'T' && state != 't') return false;
            }
        }
        return true;
    }

    static void assertOnly(Path dir, String name) throws IOException {
        try (var files = Files.list(dir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
            if (!names.equals(List.of(name))) throw new AssertionError(dir + " holds " + names + ", not only " + name);
        }
    }
}
