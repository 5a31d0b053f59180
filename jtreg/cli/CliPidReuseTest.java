/*
 * @test
 * @summary profile keeps one process for all its steps: a JVM A without the agent is
 *          profiled for 10 s; once the agent is loaded, A is killed and another JVM B, with
 *          the agent, is started under A's pid (in a pid namespace of the test's own, with
 *          ns_last_pid: deterministic). profile ends with exit 2, "process A has exited",
 *          and writes nothing: before, each step looked the pid up again and dumped (and
 *          then stopped) B's profile as A's.
 *          Root only (unshare --pid, ns_last_pid; skipped otherwise)
 * @library /lib
 * @build CliTarget
 * @run driver CliPidReuseTest
 */
import heapsampler.AgentRunner;
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;

public class CliPidReuseTest {
    /** Runs in the new pid and mount namespaces as their pid 1, forking nothing but what it says. */
    static final String SCRIPT = String.join("\n",
            "set -u",
            "mkfifo \"$DIR/stdin\"",
            "exec 3<>\"$DIR/stdin\"  # the JVMs' stdin: never at its end, one fork per JVM",
            "await() { i=0; until grep -q \"$2\" \"$1\" 2>/dev/null; do i=$((i+1)); [ $i -lt 600 ] || { echo \"timeout waiting for $2 in $1\"; exit 1; }; sleep 0.1; done; }",
            "\"$JAVA\" -Xmx64m -Djava.io.tmpdir=\"$DIR\" -cp \"$CP\" CliTarget 0<&3 >\"$DIR/a.out\" 2>&1 &",
            "A=$!",
            "await \"$DIR/a.out\" '^ready'",
            "echo \"A=$A\"",
            "\"$HS\" profile $A -d 10s -o \"$OUT\" --timeout 30s >\"$DIR/profile.out\" 2>&1 &",
            "P=$!",
            "await /proc/$A/maps libheapsampler.so",
            "sleep 2; await_quiet() { i=0; while [ -n \"$(cat /proc/$P/task/$P/children)\" ]; do i=$((i+1)); [ $i -lt 100 ] || exit 1; sleep 0.1; done; }",
            "await_quiet  # loaded, its children gone: profile waits its 10 s and forks nothing",
            "kill -9 $A; wait $A",
            "echo $((A - 1)) > /proc/sys/kernel/ns_last_pid",
            "\"$JAVA\" -agentpath:\"$AGENT\" -Xmx64m -Djava.io.tmpdir=\"$DIR\" -cp \"$CP\" CliTarget 0<&3 >\"$DIR/b.out\" 2>&1 &",
            "B=$!",
            "echo \"B=$B\"",
            "await \"$DIR/b.out\" '^ready'",
            "echo \"B ready\"",
            "wait $P",
            "echo \"profile exit $?\"",
            "cat \"$DIR/profile.out\"",
            "echo \"B still running: $(kill -0 $B && echo yes)\"",
            "kill -9 $B",
            "");

    public static void main(String[] args) throws Exception {
        Cli.requireRoot("a pid namespace of the test's own and its ns_last_pid");
        Path unshare = Cli.requireTool("unshare");
        Path dir = AgentRunner.newRunDirectory("pidreuse");
        Path script = dir.resolve("reuse.sh");
        Files.writeString(script, SCRIPT);
        Path out = dir.resolve("A.html");
        List<String> command = List.of("/usr/bin/env",
                "DIR=" + dir, "OUT=" + out, "HS=" + Cli.executable(),
                "JAVA=" + Paths.get(System.getProperty("java.home"), "bin", "java"),
                "AGENT=" + AgentRunner.agentLibrary(), "CP=" + System.getProperty("test.class.path"),
                unshare.toString(), "--pid", "--fork", "--mount-proc", "/bin/sh", script.toString());
        Cli.Result r = Cli.runCommand(command, Duration.ofSeconds(120));
        String a = value(r, "A="), b = value(r, "B=");
        if (!a.equals(b)) r.fail("B was not given A's pid (" + a + " vs " + b + "): the test could not reuse it");
        if (!r.stdout.contains("B ready")) r.fail("B did not start");
        if (!r.stdout.contains("profile exit 2")) r.fail("profile did not end with exit 2 after its JVM exited");
        if (!r.stdout.contains("heapsampler: process " + a + " has exited")) r.fail("profile did not say that process " + a + " exited");
        if (r.stdout.contains("profiled ") || Files.exists(out)) r.fail("profile wrote the other JVM's profile as A's");
        if (!r.stdout.contains("B still running: yes")) r.fail("B did not survive");
        System.out.println("profile of " + a + " ended when it exited; the JVM given its pid since was not touched");
    }

    static String value(Cli.Result r, String key) {
        return r.stdout.lines().filter(l -> l.startsWith(key)).map(l -> l.substring(key.length()).trim())
                .findFirst().orElseGet(() -> {
                    r.fail("no " + key + " line");
                    return "";
                });
    }
}
