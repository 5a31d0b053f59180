/*
 * @test
 * @summary push= redirects: an https ingester (a self-signed certificate the agent is told
 *          to trust with HEAPSAMPLER_CA_BUNDLE) that redirects to plain http never gets the
 *          profile or the credentials sent there in clear: each window is dropped as refused,
 *          with one log line however many windows; a redirect loop and a redirect to file://
 *          are dropped the same way (one line each, counted in status); once the ingester
 *          takes profiles again they arrive, over https, every window is accounted for, and
 *          the count of the repeated drops is said at that success, not left for the exit
 * @library /lib
 * @build HttpWorkload Endpoint heapsampler.PyroscopeReceiver
 * @run driver PushRedirectTest
 */
import heapsampler.AgentRunner;
import heapsampler.PyroscopeReceiver;
import heapsampler.PyroscopeReceiver.Mode;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

public class PushRedirectTest {
    static final String SECRET = "redirect-secret-77";

    public static void main(String[] args) throws Exception {
        Path dir = AgentRunner.newRunDirectory("receivers");
        Path auth = dir.resolve("auth");
        Files.writeString(auth, "user:" + SECRET + "\n");
        Files.setPosixFilePermissions(auth, PosixFilePermissions.fromString("rw-------"));
        String basic = "Basic " + Base64.getEncoder().encodeToString(("user:" + SECRET).getBytes(StandardCharsets.UTF_8));
        Path plainSide = Files.createDirectories(dir.resolve("plain-side"));
        Path tlsSide = Files.createDirectories(dir.resolve("tls-side"));
        try (PyroscopeReceiver plain = new PyroscopeReceiver(plainSide, null, null);
             PyroscopeReceiver tls = PyroscopeReceiver.https(tlsSide, basic, null)) {
            tls.redirectTo(plain.url());
            tls.mode(Mode.REDIRECT);
            Endpoint.checkWorkload(AgentRunner.withAgent("push=" + tls.url() + ",push_auth=@" + auth
                    + ",service=redir,push_period=1s,push_timeout=3s,log=info")
                    .env("HEAPSAMPLER_CA_BUNDLE", tls.certificatePem().toString())
                    .label("push-redirect"), jvm -> run(jvm, plain, tls));
        }
    }

    static void run(AgentRunner.Running jvm, PyroscopeReceiver plain, PyroscopeReceiver tls) throws Exception {
        /* two windows or more in each mode: redirected to http, in a loop (6 requests a
         * window: the first and 5 redirects followed), to file:// */
        awaitFaults(tls, Mode.REDIRECT, 2);
        int downgrades = tls.faultsAnswered(Mode.REDIRECT);
        tls.mode(Mode.REDIRECT_LOOP);
        awaitFaults(tls, Mode.REDIRECT_LOOP, 12);
        tls.mode(Mode.REDIRECT_FILE);
        awaitFaults(tls, Mode.REDIRECT_FILE, 2);
        tls.mode(Mode.OK);
        require(tls.awaitReceived(2, 20_000), "profiles arrive over https once it takes them");
        /* the file:// windows after the first were only counted: their count is said at the
         * success that follows, while the JVM runs, not left for the exit */
        String repeats = awaitLine(jvm, "push: the same failure again ", "file");
        System.out.println("said at the success: " + repeats);
        AgentRunner.Result r = Endpoint.statusThenStop(jvm);
        String status = Endpoint.pushStatusLine(r);
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");

        require(downgrades >= 2, "the https ingester redirected at least two windows: " + downgrades);
        require(plain.attempts() == 0, "nothing went to the http side of the redirect: " + plain.attempts() + " requests");
        require(tls.violations().isEmpty(), "no rule broken over https: " + tls.violations());
        long downgradeLines = r.stderr.lines().filter(l -> l.contains("redirect refused") && l.contains("http")).count();
        long loopLines = r.stderr.lines().filter(l -> l.contains("refused the profile") && l.contains("redirect loop")).count();
        long refusedLines = r.stderr.lines().filter(l -> l.contains("refused the profile")).count();
        System.out.println("lines: " + downgradeLines + " redirect refused, " + loopLines + " loop, "
                + refusedLines + " refused in all");
        require(loopLines == 1, "a redirect loop: one line, not " + loopLines);
        /* the downgrade and the file:// redirect: one line each (same kind, different error) */
        require(refusedLines == 3, "one line per kind of redirect refused, not " + refusedLines);
        r.assertStderrContains("push: the same failure again ");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" ([0-9]+) refused, ").matcher(status);
        require(m.find() && Integer.parseInt(m.group(1)) >= 4, "status counts the windows refused: " + status);
        for (String where : new String[] {r.stdout, r.stderr, status})
            require(!where.contains(SECRET), "the credentials show nowhere");
    }

    /** A stderr line holding both texts, said while the JVM runs (within 20 s). */
    static String awaitLine(AgentRunner.Running jvm, String text, String also) throws Exception {
        long end = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < end) {
            java.util.Optional<String> line = jvm.stderrSoFar().lines()
                    .filter(l -> l.contains(text) && l.contains(also)).findFirst();
            if (line.isPresent()) return line.get();
            Thread.sleep(100);
        }
        throw new AssertionError("no stderr line with '" + text + "' and '" + also + "' while the JVM ran:\n"
                + jvm.stderrSoFar());
    }

    static void awaitFaults(PyroscopeReceiver r, Mode mode, int n) throws InterruptedException {
        long end = System.currentTimeMillis() + 30_000;
        while (r.faultsAnswered(mode) < n && System.currentTimeMillis() < end) Thread.sleep(50);
        require(r.faultsAnswered(mode) >= n, n + " requests met " + mode + " within 30 s: " + r.faultsAnswered(mode));
    }

    static void require(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
