/*
 * @test
 * @summary http= refusals and the token: a port in use stops the JVM from starting with
 *          one line (as a bad file= does), and fails an attach-time load while the
 *          application runs on (a later load on a free port serves); a non-loopback
 *          address without http_token=, an unreadable, empty or FIFO token file, one its
 *          group or others may read (the line says chmod 600), a token given inline are
 *          refused at startup naming the option; with http_token=@FILE a request without
 *          the bearer token, with a wrong one, or with the right one followed by a NUL byte
 *          and more gets 401 or 400, with it 200, and the token shows nowhere (logs, status,
 *          profile)
 * @library /lib
 * @build HttpWorkload Endpoint
 * @run driver HttpRefusalTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

public class HttpRefusalTest {
    static final String TOKEN = "hs-test-token-7f3a9c";

    public static void main(String[] args) throws Exception {
        Endpoint.curl();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            refusedAtStartup("http=127.0.0.1:" + port, "heapsampler: bad option 'http=127.0.0.1:"
                    + port + "': cannot listen on 127.0.0.1 port " + port + ": Address already in use");
            attachWhilePortTaken(port);
        }
        refusedAtStartup("http=0.0.0.0:0", "heapsampler: bad option 'http=0.0.0.0:0': '0.0.0.0' is "
                + "not a loopback address: serving profiles beyond this host needs http_token=@FILE");
        refusedAtStartup("http=0,http_token=@no-such-file",
                "heapsampler: bad option 'http_token=@no-such-file': cannot read it: No such file");
        Path empty = AgentRunner.newRunDirectory("token").resolve("empty");
        Files.writeString(empty, "\n");
        Files.setPosixFilePermissions(empty, PosixFilePermissions.fromString("rw-------"));
        refusedAtStartup("http=0,http_token=@" + empty, "': the token file is empty");
        Path shared = empty.resolveSibling("shared");
        Files.writeString(shared, TOKEN + "\n");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-r-----"));
        refusedAtStartup("http=0,http_token=@" + shared, "heapsampler: bad option 'http_token=@" + shared
                + "': it is readable or writable by its group or others (mode 0640): make it private "
                + "with chmod 600 " + shared);
        Path fifo = empty.resolveSibling("fifo"); /* would block an open() without O_NONBLOCK */
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
            refusedAtStartup("http=0,http_token=@" + fifo, "': cannot read it: not a regular file");
        }
        refusedAtStartup("http=0,http_token=" + TOKEN, "heapsampler: bad option 'http_token="
                + TOKEN + "': not @FILE");
        token();
    }

    /** Sends request (raw bytes, NUL included) and returns the answer's status line. */
    static String rawStatusLine(int port, String request) throws Exception {
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int end = answer.indexOf("\r\n");
            return end < 0 ? answer : answer.substring(0, end);
        }
    }

    static void refusedAtStartup(String options, String line) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(options).label("refused").run("HttpWorkload");
        r.assertNoCrash().assertExitCodeNonZero().assertStderrContains(line)
                .assertStdoutLacks("WORKLOAD DONE");
    }

    static void attachWhilePortTaken(int port) throws Exception {
        AgentRunner.Running jvm = AgentRunner.withoutAgent().label("attach")
                .jvmFlags("-XX:+EnableDynamicAgentLoading").start("HttpWorkload");
        try {
            Thread.sleep(1000);
            String refused = Endpoint.jcmd(jvm.process.pid(), "http=127.0.0.1:" + port + ",log=info");
            System.out.println("attach on a taken port: " + refused);
            if (refused.contains("return code: 0")) throw new AssertionError("the load did not fail");
            String loaded = Endpoint.jcmd(jvm.process.pid(), "http=0,log=info");
            if (!loaded.contains("return code: 0")) throw new AssertionError("load failed: " + loaded);
            String line = jvm.awaitStderrLine("http: serving", Duration.ofSeconds(30));
            java.util.regex.Matcher m = Endpoint.SERVING.matcher(line);
            if (!m.find()) throw new AssertionError(line);
            Path scratch = AgentRunner.newRunDirectory("attach-fetch");
            Process curl = new ProcessBuilder(Endpoint.curl().toString(), "-sS", "--max-time", "60",
                    "-o", scratch.resolve("heap.pb.gz").toString(), "-w", "%{http_code}",
                    "http://127.0.0.1:" + m.group(2) + "/debug/pprof/heap")
                    .redirectErrorStream(true).start();
            String code = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            curl.waitFor();
            if (!code.equals("200")) throw new AssertionError("curl after attach: " + code);
            Pprof.read(scratch.resolve("heap.pb.gz")).validate();
            Files.writeString(jvm.dir.resolve("stop"), "");
        } catch (Throwable t) {
            jvm.close();
            throw t;
        }
        AgentRunner.Result r = jvm.finish();
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");
        r.assertStderrContains("cannot listen on 127.0.0.1 port " + port + ": Address already in use");
    }

    static void token() throws Exception {
        Path file = AgentRunner.newRunDirectory("token").resolve("token.txt");
        Files.writeString(file, TOKEN + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Endpoint e = Endpoint.start("token", "http=0,http_token=@" + file + ",log=info",
                "-XX:+EnableDynamicAgentLoading");
        String status;
        try {
            Endpoint.Fetch none = e.fetch("/debug/pprof/heap").assertStatus(401)
                    .assertHeader("WWW-Authenticate: Bearer realm=\"heapsampler\"");
            e.fetch("/debug/pprof/heap", "-H", "Authorization: Bearer " + TOKEN + "x").assertStatus(401);
            e.fetch("/debug/pprof/heap", "-H", "Authorization: Basic " + TOKEN).assertStatus(401);
            String nul = rawStatusLine(e.port, "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\0junk\r\n\r\n");
            if (!nul.startsWith("HTTP/1.1 400 ")) throw new AssertionError("the token, a NUL and more: " + nul);
            Endpoint.Fetch ok = e.fetch("/debug/pprof/heap", "-H", "Authorization: Bearer " + TOKEN)
                    .assertStatus(200);
            Pprof.parse(ok.body()).validate();
            String text = new String(Pprof.gunzip(ok.body()), StandardCharsets.ISO_8859_1);
            if (text.contains(TOKEN) || none.bodyText().contains(TOKEN)) {
                throw new AssertionError("the token is in a response");
            }
            status = Endpoint.jcmd(e.jvm.process.pid(), "status");
        } catch (Throwable t) {
            e.jvm.close();
            throw t;
        }
        AgentRunner.Result r = e.stop();
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE);
        r.assertStdoutContains("(bearer token required), 5 answered, 4 refused");
        if (r.stdout.contains(TOKEN) || r.stderr.contains(TOKEN) || status.contains(TOKEN)) {
            r.fail("the token shows in the JVM's output");
        }
        String exit = new String(Pprof.gunzip(Files.readAllBytes(
                r.file("heapsampler-" + e.jvm.process.pid() + ".pb.gz"))), StandardCharsets.ISO_8859_1);
        if (exit.contains(TOKEN)) r.fail("the token is in the exit profile");
    }
}
