/*
 * @test
 * @summary A JVM in its own pid and mount namespaces (unshare --pid --mount --fork
 *          --mount-proc, java as pid 1 with a private tmpfs /tmp), started without the
 *          agent, driven from outside by its host pid: load, status, top, dump -o a host
 *          path. Nothing the command made is left in the container's /tmp but a library
 *          copy that load says it left there. Root only (skipped otherwise)
 * @library /lib
 * @build CliTarget
 * @run driver CliContainerTest
 */
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;

public class CliContainerTest {
    public static void main(String[] args) throws Exception {
        Cli.requireRoot("unshare --pid --mount");
        Path unshare = Cli.requireTool("unshare");
        Path sh = Cli.requireTool("sh");
        Set<Path> before = Cli.leftovers(List.of(Paths.get("/tmp")));
        try (Cli.Target t = Cli.Target.withoutAgent()
                .prefix(unshare.toString(), "--pid", "--mount", "--fork", "--mount-proc",
                        sh.toString(), "-c", "mount -t tmpfs -o size=64m tmpfs /tmp && exec \"$@\"", "sh")
                .jvmFlags("-Xmx128m", "-XX:+EnableDynamicAgentLoading")) {
            t.start("CliTarget");
            if (!t.stdout().contains("ready pid=1\n")) throw new AssertionError("java is not pid 1 in its namespace\n" + t.describe());
            String pid = t.pidString();
            Path containerTmp = Paths.get("/proc/" + pid + "/root/tmp");

            Cli.Result load = Cli.run("load", pid, "interval=16k").assertOk();
            t.command("retain", "retained");
            Cli.run("status", pid).assertOk().assertStdoutContains("state: running");
            Cli.Result top = Cli.run("top", pid).assertOk();
            String first = top.stdout.lines().filter(l -> l.matches("\\s*1\\s.*")).findFirst().orElse("");
            if (!first.contains("CliTarget.retain")) top.fail("the first row is not CliTarget.retain: " + first);
            Path out = Files.createDirectories(t.dir().resolveSibling(t.dir().getFileName() + "-out"));
            Path dump = out.resolve("container.pb.gz");
            Cli.run("dump", pid, "-o", dump.toString()).assertOk();
            heapsampler.Pprof p = heapsampler.Pprof.read(dump).validate();
            if (p.sum("inuse_space", s -> p.hasFrame(s, "CliTarget.retain")) == 0) {
                throw new AssertionError("the container's dump has no CliTarget.retain in use");
            }
            Cli.run("paths", pid, "-n", "1").assertOk().assertStdoutContains("CliTarget.HOLDER");

            // the container's own /tmp (a fresh tmpfs), seen from the host while it lives:
            // only the JVM's own files, and a library copy that load named
            List<Path> inside;
            try (var files = Files.list(containerTmp)) {
                inside = files.toList();
            }
            for (Path left : inside) {
                String name = left.getFileName().toString();
                if (name.startsWith("hsperfdata_") || name.equals(".java_pid1")) continue;
                boolean libraryCopy = name.endsWith(".so") || (Files.isDirectory(left) && onlyLibraries(left));
                if (!libraryCopy) throw new AssertionError("left in the container's /tmp: " + name);
                if (!load.stdout.contains(name)) load.fail("load left " + name + " in the container without saying so");
            }
            t.assertUndisturbed(CliTarget.EXIT_CODE);
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp"), t.dir()), t.pid());
        }
    }

    static boolean onlyLibraries(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.allMatch(f -> f.getFileName().toString().endsWith(".so"));
        }
    }
}
