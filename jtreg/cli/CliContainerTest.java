/*
 * @test id=visible
 * @summary A JVM in its own pid and mount namespaces (unshare --pid --mount --fork
 *          --mount-proc, java as pid 1 with a private tmpfs /tmp), started without the
 *          agent, driven from outside by its host pid: load, status, top, dump -o a host
 *          path, paths. Nothing the command made is left in the container's /tmp but a
 *          library copy that load says it left there. Root only (skipped otherwise)
 * @library /lib
 * @build CliTarget
 * @run driver CliContainerTest visible
 */
/*
 * @test id=hidden
 * @summary The same with the build directory (the library) hidden from the container under
 *          a tmpfs: load copies the library in, says where it stays, and every verb works
 * @library /lib
 * @build CliTarget
 * @run driver CliContainerTest hidden
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

public class CliContainerTest {
    public static void main(String[] args) throws Exception {
        Cli.requireRoot("unshare --pid --mount");
        boolean hidden = args[0].equals("hidden");
        Path unshare = Cli.requireTool("unshare");
        Path sh = Cli.requireTool("sh");
        Set<Path> before = Cli.leftovers(List.of(Paths.get("/tmp")));
        List<String> prefix = new ArrayList<>(List.of(unshare.toString(), "--pid", "--mount", "--fork",
                "--mount-proc", sh.toString(), "-c"));
        Cli.Target t = Cli.Target.withoutAgent().jvmFlags("-Xmx128m", "-XX:+EnableDynamicAgentLoading");
        // The classes are copied into the container's fresh /tmp (they may live under the
        // host's /tmp, which the new tmpfs covers: the host's /tmp stays reachable inside at
        // /mnt/host-tmp). hidden: the build directory (the library, the test's files)
        // disappears under an empty tmpfs; visible: it is seen at its own path, bound back
        // in when it lies under /tmp.
        prefix.addAll(List.of("c=$1; b=$2; h=$3; shift 3;"
                + " mount -t tmpfs -o size=1m tmpfs /mnt && mkdir /mnt/host-tmp && mount --bind /tmp /mnt/host-tmp"
                + " && mount -t tmpfs -o size=64m tmpfs /tmp && mkdir /tmp/app"
                + " && case \"$c\" in /tmp/*) c=/mnt/host-tmp/${c#/tmp/};; esac && cp -r \"$c\"/. /tmp/app/"
                + " && if [ \"$h\" = hidden ]; then if [ -d \"$b\" ]; then mount -t tmpfs -o size=1m tmpfs \"$b\"; fi;"
                + " else case \"$b\" in /tmp/*) mkdir -p \"$b\" && mount --bind \"/mnt/host-tmp/${b#/tmp/}\" \"$b\";; esac; fi"
                + " && cd /tmp/app && exec \"$@\"", "sh", classesDir().toString(),
                AgentRunner.agentLibrary().getParent().toString(), hidden ? "hidden" : "visible"));
        t.classPath("/tmp/app");
        try (t) {
            t.prefix(prefix.toArray(String[]::new)).start("CliTarget");
            if (!t.stdout().contains("ready pid=1\n")) throw new AssertionError("java is not pid 1 in its namespace\n" + t.describe());
            String pid = t.pidString();
            Path containerTmp = Paths.get("/proc/" + pid + "/root/tmp");
            if (hidden && Files.exists(Paths.get("/proc/" + pid + "/root" + AgentRunner.agentLibrary()))) {
                throw new AssertionError("the library is still visible in the container");
            }

            Cli.Result load = Cli.run("load", pid, "interval=16k").assertOk();
            t.command("retain", "retained");
            Cli.run("status", pid).assertOk().assertStdoutContains("state: running");
            Cli.run("top", pid).assertOk().assertFirstRow("CliTarget.retain", "byte[]");
            Path out = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-out"));
            Path dump = out.resolve("container.pb.gz");
            Cli.run("dump", pid, "-o", dump.toString()).assertOk();
            heapsampler.Pprof p = heapsampler.Pprof.read(dump).validate();
            if (p.sum("inuse_space", s -> p.hasFrame(s, "CliTarget.retain")) == 0) {
                throw new AssertionError("the container's dump has no CliTarget.retain in use");
            }
            Cli.run("paths", pid, "-n", "1").assertOk().assertStdoutContains("CliTarget.HOLDER");

            // the container's own /tmp (a fresh tmpfs), seen from the host while it lives:
            // only the JVM's own files (and the copied classes), and a library copy that load named
            List<Path> inside;
            try (var files = Files.list(containerTmp)) {
                inside = files.toList();
            }
            boolean copied = false;
            Path libDir = AgentRunner.agentLibrary().getParent();
            String boundBack = !hidden && libDir.startsWith("/tmp") && libDir.getNameCount() > 1
                    ? libDir.getName(1).toString() : null; // the build directory's mount point
            for (Path left : inside) {
                String name = left.getFileName().toString();
                if (name.startsWith("hsperfdata_") || name.equals(".java_pid1") || name.equals("app")
                        || name.equals(boundBack)) continue;
                boolean libraryCopy = name.endsWith(".so") || (Files.isDirectory(left) && onlyLibraries(left));
                if (!libraryCopy) throw new AssertionError("left in the container's /tmp: " + name);
                if (!load.stdout.contains(name)) load.fail("load left " + name + " in the container without saying so");
                copied = true;
            }
            if (hidden && !copied) throw new AssertionError("no library copy in the container's /tmp: " + inside);
            t.assertUndisturbed(CliTarget.EXIT_CODE);
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp"), t.dir()), t.pid());
        }
    }

    /** The class path entry holding CliTarget.class. */
    static Path classesDir() {
        return Arrays.stream(System.getProperty("test.class.path").split(File.pathSeparator)).map(Paths::get)
                .filter(d -> Files.isRegularFile(d.resolve("CliTarget.class"))).findFirst()
                .orElseThrow(() -> new AssertionError("CliTarget.class is on no class path entry"));
    }

    static boolean onlyLibraries(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.allMatch(f -> f.getFileName().toString().endsWith(".so"));
        }
    }
}
