/*
 * Endpoint: what the HTTP tests share: start HttpWorkload with an agent that serves
 * http=, learn its address from the agent's startup line, fetch with curl (a client
 * nobody here wrote), send jcmd commands, and stop the workload. Only 127.0.0.1.
 */
import heapsampler.AgentRunner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class Endpoint {
    static final Pattern SERVING = Pattern.compile("on http://(127\\.0\\.0\\.1|0\\.0\\.0\\.0):(\\d+)");

    final AgentRunner.Running jvm;
    final int port;

    private Endpoint(AgentRunner.Running jvm, int port) {
        this.jvm = jvm;
        this.port = port;
    }

    /** Starts HttpWorkload with these agent options (they must hold http=) and waits for
     * the agent's "http: serving ..." line. */
    static Endpoint start(String label, String options, String... jvmFlags) throws Exception {
        AgentRunner.Running jvm = AgentRunner.withAgent(options).label(label).jvmFlags(jvmFlags)
                .start("HttpWorkload");
        String line = jvm.awaitStderrLine("http: serving", Duration.ofSeconds(60));
        Matcher m = SERVING.matcher(line);
        if (!m.find()) throw new AssertionError("no address in: " + line);
        return new Endpoint(jvm, Integer.parseInt(m.group(2)));
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Asks the workload to end and waits for its exit. */
    AgentRunner.Result stop() throws Exception {
        Files.writeString(jvm.dir.resolve("stop"), "");
        return jvm.finish();
    }

    /** One curl run: its exit code, the response's headers and body. */
    record Fetch(int exitCode, int status, String headers, byte[] body, String stderr) {
        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        Fetch assertStatus(int expected) {
            if (status != expected) {
                throw new AssertionError("expected HTTP " + expected + ", got " + status
                        + " (curl exit " + exitCode + ")\n" + headers + "\n" + stderr);
            }
            return this;
        }

        Fetch assertHeader(String line) {
            if (!headers.contains(line + "\r\n")) {
                throw new AssertionError("no header \"" + line + "\" in:\n" + headers);
            }
            return this;
        }
    }

    static Path curl() {
        for (String c : List.of("/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl")) {
            if (Files.isExecutable(Path.of(c))) return Path.of(c);
        }
        throw new jtreg.SkippedException("skipped: curl not found (apt-get install curl)");
    }

    /** curl -sS [extra] URL, at most 60 s. */
    Fetch fetch(String path, String... extra) throws IOException, InterruptedException {
        return fetchUrl(url(path), extra);
    }

    /** curl -sS [extra] URL, at most 60 s, for an endpoint this class did not start. */
    static Fetch fetchUrl(String url, String... extra) throws IOException, InterruptedException {
        Path scratch = AgentRunner.newRunDirectory("curl");
        List<String> command = new ArrayList<>(List.of(curl().toString(), "-sS", "--max-time",
                "60", "-D", scratch.resolve("headers").toString(), "-o",
                scratch.resolve("body").toString()));
        command.addAll(Arrays.asList(extra));
        command.add(url);
        Process p = new ProcessBuilder(command).redirectErrorStream(false)
                .redirectError(scratch.resolve("stderr").toFile())
                .redirectOutput(scratch.resolve("stdout").toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("curl did not finish: " + command);
        }
        String headers = Files.exists(scratch.resolve("headers"))
                ? Files.readString(scratch.resolve("headers"), StandardCharsets.ISO_8859_1) : "";
        byte[] body = Files.exists(scratch.resolve("body"))
                ? Files.readAllBytes(scratch.resolve("body")) : new byte[0];
        int status = headers.startsWith("HTTP/1.1 ")
                ? Integer.parseInt(headers.substring(9, 12)) : -1;
        return new Fetch(p.exitValue(), status, headers, body,
                Files.readString(scratch.resolve("stderr")));
    }

    /** What a test does with a running workload. */
    interface Check {
        void run(AgentRunner.Running jvm) throws Exception;
    }

    /** Starts HttpWorkload as runner says, with dynamic agent loading allowed (for jcmd),
     * and runs check on it; a check that fails kills the JVM, so no child is left behind. */
    static void checkWorkload(AgentRunner runner, Check check) throws Exception {
        AgentRunner.Running jvm = runner.jvmFlags("-XX:+EnableDynamicAgentLoading").start("HttpWorkload");
        try {
            check.run(jvm);
        } catch (Throwable t) {
            jvm.close();
            throw t;
        }
    }

    /** Asks the agent for its status (printed on the JVM's stdout), then ends the workload
     * (its "stop" file) and waits for its exit. */
    static AgentRunner.Result statusThenStop(AgentRunner.Running jvm) throws Exception {
        jcmd(jvm.process.pid(), "status");
        Files.writeString(jvm.dir.resolve("stop"), "");
        return jvm.finish();
    }

    /** The push line of the status a run printed on its stdout. */
    static String pushStatusLine(AgentRunner.Result r) {
        return r.stdout.lines().filter(l -> l.startsWith("heapsampler: push: to ")).findFirst()
                .orElseThrow(() -> new AssertionError("no push status line in:\n" + r.stdout));
    }

    /** jcmd PID JVMTI.agent_load LIBRARY "COMMAND" (quoted, as the README says: jcmd splits
     * its arguments at "="); returns jcmd's output. */
    static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "JVMTI.agent_load",
                AgentRunner.agentLibrary().toString(), "\"" + command + "\"")
                .redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("jcmd " + command + " did not finish");
        }
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
