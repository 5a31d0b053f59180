/*
 * @test
 * @summary load and list as root against a hostile user's JVMs. A library only root may
 *          read, in a directory anyone may cross (access() as root said the JVM's user could
 *          read it, and the JVM failed to load it): load copies it into the JVM's
 *          /tmp/heapsampler-VERSION/ as that user, and the JVM loads the copy. That directory
 *          swapped for a symbolic link to a root-only directory while a copy is made: refused
 *          in one line, nothing written there. A JVM whose -XX:+DisableAttachMechanism comes
 *          from -XX:VMOptionsFile (not on its command line: its perfdata says so): top refuses
 *          at once and sends no SIGQUIT (no thread dump in the application's output); list
 *          marks it. list marks a stopped JVM, and survives a process that maps a "libjvm.so"
 *          whose JDK release file is a FIFO, with an argv[0] holding ESC c, CR and an 8-bit CSI
 *          (shown escaped)
 * @library /lib
 * @build CliTarget Hostile
 * @run driver CliHostileLoadTest
 */
import heapsampler.AgentRunner;
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

public class CliHostileLoadTest {
    static final String TIMEOUT = "30s";

    public static void main(String[] args) throws Exception {
        try (Hostile user = Hostile.create("load")) {
            Set<Path> before = Cli.leftovers(List.of(Paths.get("/tmp")));
            long tag = ProcessHandle.current().pid();
            Path libDir = Files.createDirectories(Paths.get("/var/tmp/hs-lib-" + tag));
            Hostile.Victim victim = new Hostile.Victim(Paths.get("/var/tmp/hs-victim-" + tag));
            Path fakeJdk = Paths.get("/tmp/hs-fakejdk-" + tag);
            Hostile.Attacks attacks = new Hostile.Attacks();
            try {
                // a directory anyone may cross, a library only root may read (stat() as the user
                // works, so the same file is seen; access() as root says it is readable); and one
                // in a directory only root may cross
                Path lib = Files.copy(AgentRunner.agentLibrary(), libDir.resolve("libheapsampler.so"));
                Path hidden = Files.createDirectories(libDir.resolve("hidden"));
                Path hiddenLib = Files.copy(AgentRunner.agentLibrary(), hidden.resolve("libheapsampler.so"));
                Cli.system("chmod", "0755", libDir.toString());
                Cli.system("chmod", "0600", lib.toString());
                Cli.system("chmod", "0700", hidden.toString());
                loadFromRootOnly(user, lib, hiddenLib, victim, attacks);
                attacks.run("-XX:+DisableAttachMechanism from a VM options file", () -> attachDisabled(user));
                attacks.run("list: a stopped JVM, a FIFO as a JDK's release file, ESC in argv[0]", () -> listHostile(user, fakeJdk));
            } finally {
                Cli.system("rm", "-rf", libDir.toString(), fakeJdk.toString());
                victim.remove();
            }
            attacks.assertAllRefused();
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp")));
        }
    }

    /** The user's JVM in its own mount namespace with a private /tmp (its copy's place). A
     *  build directory under the host's /tmp (a checkout there) would vanish under the new
     *  tmpfs with the JVM's classes: the top folder holding it is bound back in. */
    static Cli.Target privateTmpJvm(Hostile user) throws Exception {
        String build = AgentRunner.agentLibrary().toAbsolutePath().getParent().toString();
        List<String> prefix = new ArrayList<>(List.of(Cli.requireTool("unshare").toString(), "--mount", "--fork",
                "/bin/sh", "-c", "b=$1; shift;"
                        + " mount -t tmpfs -o size=1m tmpfs /mnt && mkdir /mnt/host-tmp && mount --bind /tmp /mnt/host-tmp"
                        + " && mount -t tmpfs -o size=64m tmpfs /tmp"
                        + " && case \"$b\" in /tmp/*) t=${b#/tmp/}; t=${t%%/*};"
                        + " mkdir \"/tmp/$t\" && mount --bind \"/mnt/host-tmp/$t\" \"/tmp/$t\";; esac"
                        + " && exec \"$@\"", "sh", build));
        prefix.addAll(List.of(user.prefix()));
        return Cli.Target.withoutAgent().prefix(prefix.toArray(String[]::new))
                .jvmFlags("-Xmx64m", "-XX:+EnableDynamicAgentLoading");
    }

    static void loadFromRootOnly(Hostile user, Path lib, Path hiddenLib, Hostile.Victim victim, Hostile.Attacks attacks)
            throws Exception {
        try (Cli.Target t = privateTmpJvm(user)) {
            t.startIn(user.directory("hostile-load"), "CliTarget");
            String pid = t.pidString();
            Path tmp = Paths.get("/proc", pid, "root", "tmp");
            String version = Hostile.run("--version").assertOk().stdout.trim().replaceAll(".* ", "");
            Path copyDir = tmp.resolve("heapsampler-" + version);
            attacks.run("the library copy's directory swapped for a link to a root-only directory", () -> {
                Hostile.Paused p = Hostile.pause("copy_library", "load", pid, "--lib", hiddenLib.toString(), "--timeout", TIMEOUT);
                user.sh("mv " + copyDir + " " + tmp.resolve("moved") + " && ln -s " + victim.path + " " + copyDir);
                try {
                    Cli.Result r = p.resume().finish();
                    victim.assertUntouched(r);
                    r.assertFailure(Cli.EXIT_ATTACH, Hostile.QUICK, "moved or replaced", "refusing");
                } finally {
                    user.sh("rm -rf " + copyDir + " " + tmp.resolve("moved"));
                }
            });
            attacks.run("a library the JVM's user may not read (access() as root says it may)", () -> loadCopy(user, t, lib, copyDir));
            t.assertUndisturbed(CliTarget.EXIT_CODE);
        }
    }

    /** Undisturbed: the library copied as the JVM's user, and loaded. */
    static void loadCopy(Hostile user, Cli.Target t, Path lib, Path copyDir) throws Exception {
        String pid = t.pidString();
        Cli.Result load = Hostile.run("load", pid, "--lib", lib.toString(), "interval=16k", "--timeout", TIMEOUT).assertOk();
        load.assertStdoutContains("library copied for the JVM to /tmp/" + copyDir.getFileName() + "/libheapsampler.so");
        Object owner = Files.getAttribute(copyDir.resolve("libheapsampler.so"), "unix:uid");
        if (!owner.toString().equals(user.uid)) load.fail("the copy belongs to uid " + owner + ", not the JVM's " + user.uid);
        Hostile.run("status", pid, "--timeout", TIMEOUT).assertOk().assertStdoutContains("state: running");
    }

    /** -XX:+DisableAttachMechanism from a VM options file: only the JVM's perfdata tells. */
    static void attachDisabled(Hostile user) throws Exception {
        Path dir = user.directory("hostile-closed");
        Path options = Files.writeString(dir.resolve("vm.options"), "-XX:+DisableAttachMechanism\n");
        try (Cli.Target t = Cli.Target.withAgent("interval=64k").prefix(user.prefix())
                .jvmFlags("-Xmx64m", "-XX:VMOptionsFile=" + options)) {
            t.startIn(dir, "CliTarget");
            String pid = t.pidString();
            Cli.Result top = Hostile.assertQuick(Hostile.run("top", pid, "--timeout", TIMEOUT));
            if (t.stdout().contains("Full thread dump")) top.fail("SIGQUIT was sent: a thread dump in the application's output");
            top.assertFailure(Cli.EXIT_ATTACH, Hostile.QUICK, "DisableAttachMechanism");
            Cli.Result list = listQuickly();
            String row = rowOf(list, t.pid());
            if (!row.contains("attach disabled")) list.fail("list does not mark " + pid + " as refusing attach: " + row);
            t.assertUndisturbed(CliTarget.EXIT_CODE);
        }
    }

    /** A stopped JVM and a fake one (a "libjvm.so" mapped, its release file a FIFO, ESC in argv[0]). */
    static void listHostile(Hostile user, Path fakeJdk) throws Exception {
        user.sh("mkdir -p " + fakeJdk + "/lib/server && cp /lib/x86_64-linux-gnu/libz.so.1 " + fakeJdk
                + "/lib/server/libjvm.so && mkfifo " + fakeJdk + "/release");
        Process fake = user.spawn(null, "/bin/bash", "-c", "LD_PRELOAD=" + fakeJdk + "/lib/server/libjvm.so exec -a \"$(printf '"
                + "\\033c\\r\\302\\233fake')\" sleep 120");
        try (Cli.Target t = Cli.Target.withAgent("interval=64k").prefix(user.prefix()).jvmFlags("-Xmx64m")) {
            t.startIn(user.directory("hostile-stopped"), "CliTarget");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!Cli.readProc(Paths.get("/proc", Long.toString(fake.pid()), "maps")).contains(fakeJdk + "/lib/server/libjvm.so")) {
                if (System.nanoTime() > deadline) throw new AssertionError("the fake JVM did not map its libjvm.so");
                Thread.sleep(20);
            }
            Cli.system("kill", "-STOP", t.pidString());
            Cli.Result list;
            try {
                list = listQuickly();
            } finally {
                Cli.system("kill", "-CONT", t.pidString());
            }
            String stopped = rowOf(list, t.pid());
            if (!stopped.contains("stopped")) list.fail("list does not mark the stopped JVM: " + stopped);
            String fakeRow = rowOf(list, fake.pid());
            if (!fakeRow.contains("\\x1bc\\x0d\\xc2\\x9bfake") || !fakeRow.matches("\\S+\\s+\\S+\\s+\\?\\s.*")) {
                list.fail("the fake JVM's row: " + fakeRow);
            }
            t.assertUndisturbed(CliTarget.EXIT_CODE);
        } finally {
            fake.destroyForcibly().waitFor();
        }
    }

    /** list, which must finish even if a process on the host is hostile. */
    static Cli.Result listQuickly() throws Exception {
        Cli.Result list = Cli.runCommand(List.of(Cli.executable().toString(), "list"), Duration.ofSeconds(30));
        Hostile.assertNoControlBytes(list);
        return list.assertOk();
    }

    static String rowOf(Cli.Result list, long pid) {
        return list.stdout.lines().filter(l -> l.startsWith(pid + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + pid + "\n" + list.describe()));
    }
}
