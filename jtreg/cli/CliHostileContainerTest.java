/*
 * @test id=userns
 * @summary A JVM running as uid 0 in its own user namespace (unshare --user --map-root-user
 *          --pid --mount, started by a user made for the test) and its own root directory
 *          (pivot_root onto bind mounts, whose /tmp is a plain directory the container's
 *          root owns): the command works there (status, top, dump -o a root-only directory, the
 *          file the operator's) without any host privilege on the target's side (the reply
 *          file in its /tmp is the user's on the host); the container's root swaps its /tmp
 *          for a symbolic link to a root-only host directory between two steps: refused in
 *          one line, nothing made there (the host resolves an absolute link from its own
 *          root, so following it would write into the host)
 * @library /lib
 * @build CliTarget Hostile
 * @run driver CliHostileContainerTest userns
 */
/*
 * @test id=rootful
 * @summary The same with the JVM as the host's uid 0 in a container without a user
 *          namespace (unshare --pid --mount and pivot_root: Docker's default), where the
 *          command used to keep all of root's privilege on the target's side
 * @library /lib
 * @build CliTarget Hostile
 * @run driver CliHostileContainerTest rootful
 */
import heapsampler.AgentRunner;
import heapsampler.Cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

public class CliHostileContainerTest {
    static final String TIMEOUT = "30s";

    /**
     * Run by unshare: makes R the container's root as container runtimes do (pivot_root onto
     * a bind mount of R, so /proc/PID/maps and /proc/PID/root show paths as the container
     * sees them), with the host's /usr, /etc, /opt and /dev bound in, /bin /lib /lib64 /sbin
     * as the usr-merged links, a fresh /proc, and a /tmp of its own (a plain directory the
     * container's root owns); then runs the command given, from /app.
     */
    static final String CONTAINER = "R=$1; shift; mount --bind \"$R\" \"$R\" || exit 1;"
            + " for d in usr etc opt dev; do mkdir -p \"$R/$d\" && mount --rbind \"/$d\" \"$R/$d\" || exit 1; done;"
            + " for l in bin lib lib64 sbin; do ln -s usr/$l \"$R/$l\"; done;"
            + " mkdir -p \"$R/proc\" \"$R/tmp\" \"$R/var/tmp\" \"$R/old\" && chmod 1777 \"$R/tmp\""
            + " && mount -t proc proc \"$R/proc\" && cd \"$R\" && pivot_root . old && umount -l /old"
            + " && cd /app && exec \"$@\"";

    public static void main(String[] args) throws Exception {
        boolean userns = args[0].equals("userns");
        Cli.requireRoot("containers");
        Path unshare = Cli.requireTool("unshare");
        Cli.requireTool("pivot_root");
        try (Hostile user = Hostile.create("ctr")) {
            Set<Path> before = Cli.leftovers(List.of(Paths.get("/tmp")));
            long tag = ProcessHandle.current().pid();
            Path root = Files.createDirectories(Paths.get("/tmp/hs-root-" + tag));
            Hostile.Victim victim = new Hostile.Victim(Paths.get("/var/tmp/hs-victim-" + tag));
            Path out = Files.createDirectories(AgentRunner.newRunDirectory("root-only-out"));
            Cli.system("chmod", "0700", out.toString());
            try {
                Path app = Files.createDirectories(root.resolve("app"));
                Cli.system("cp", "-r", classesDir() + "/.", app.toString());
                Files.copy(AgentRunner.agentLibrary(), app.resolve("libheapsampler.so"));
                if (userns) Cli.system("chown", "-R", user.uid + ":" + user.gid, root.toString());
                List<String> prefix = new ArrayList<>();
                if (userns) prefix.addAll(Arrays.asList(user.prefix()));
                prefix.addAll(List.of(unshare.toString()));
                if (userns) prefix.addAll(List.of("--user", "--map-root-user"));
                prefix.addAll(List.of("--pid", "--mount", "--fork", "/bin/sh", "-c", CONTAINER, "sh", root.toString()));
                try (Cli.Target t = Cli.Target.withoutAgent().prefix(prefix.toArray(String[]::new)).classPath("/app")
                        .jvmFlags("-Xmx64m", "-agentpath:/app/libheapsampler.so=interval=16k")) {
                    t.startIn(app, "CliTarget");
                    if (!t.stdout().contains("ready pid=1\n")) throw new AssertionError("java is not pid 1 in its namespace\n" + t.describe());
                    Hostile.Attacks attacks = new Hostile.Attacks();
                    attacks.run("(not an attack) a uid-0 JVM in a container: status, top, dump, its files its root's",
                            () -> works(t, out, userns ? user.uid : "0"));
                    attacks.run("the container's /tmp swapped for a link to a host directory", () -> tmpSwapped(t, root, victim, false));
                    attacks.run("the same, paths walked as without openat2", () -> tmpSwapped(t, root, victim, true));
                    t.assertUndisturbed(CliTarget.EXIT_CODE);
                    attacks.assertAllRefused();
                }
            } finally {
                Cli.system("rm", "-rf", out.toString());
                victim.remove();
                Cli.system("sh", "-c", "rm -rf " + root + " 2>/dev/null; true"); // the mounts went with the namespace
            }
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp")));
        }
    }

    /** status, top and dump work; the files made in the container are its root's (uid on the host). */
    static void works(Cli.Target t, Path out, String hostUid) throws Exception {
        String pid = t.pidString();
        Hostile.run("status", pid, "--timeout", TIMEOUT).assertOk().assertStdoutContains("state: running");
        Hostile.run("top", pid, "--timeout", TIMEOUT).assertOk().assertFirstRow("CliTarget.retain", "byte[]");
        Path dump = out.resolve("container.pb.gz");
        Hostile.run("dump", pid, "-o", dump.toString(), "--timeout", TIMEOUT).assertOk();
        Object owner = Files.getAttribute(dump, "unix:uid");
        if (!owner.equals(0)) throw new AssertionError(dump + " belongs to uid " + owner + ", not the operator");
        Hostile.Paused p = Hostile.pause("attach", "status", pid, "--timeout", TIMEOUT);
        Path reply = Hostile.theFile(Paths.get("/proc", pid, "root", "tmp"), ".heapsampler-1-*.reply");
        Object replyOwner = Files.getAttribute(reply, "unix:uid");
        p.resume().finish().assertOk();
        if (!replyOwner.toString().equals(hostUid)) {
            throw new AssertionError("the reply file in the container belonged to uid " + replyOwner + " on the host, not " + hostUid);
        }
    }

    /** The container's root swaps its /tmp for a link to a host directory: refused, nothing made there. */
    static void tmpSwapped(Cli.Target t, Path root, Hostile.Victim victim, boolean walk) throws Exception {
        String pid = t.pidString();
        String[] args = {"status", pid, "--timeout", TIMEOUT};
        Hostile.Paused p = walk ? Hostile.pauseWalking("files", args) : Hostile.pause("files", args);
        Path tmp = root.resolve("tmp"), moved = root.resolve("tmp.moved");
        // as the container's root would (the same owner on the host)
        Cli.system("sh", "-c", "mv " + tmp + " " + moved + " && ln -s " + victim.path + " " + tmp);
        try {
            Cli.Result r = p.resume().finish();
            victim.assertUntouched(r);
            r.assertFailure(Cli.EXIT_ATTACH, Hostile.QUICK, "moved or replaced", "refusing");
        } finally {
            Cli.system("sh", "-c", "rm " + tmp + " && mv " + moved + " " + tmp);
        }
        Hostile.run("status", pid, "--timeout", TIMEOUT).assertOk();
    }

    /** The class path entry holding CliTarget.class. */
    static Path classesDir() {
        return Arrays.stream(System.getProperty("test.class.path").split(File.pathSeparator)).map(Paths::get)
                .filter(d -> Files.isRegularFile(d.resolve("CliTarget.class"))).findFirst()
                .orElseThrow(() -> new AssertionError("CliTarget.class is on no class path entry"));
    }
}
