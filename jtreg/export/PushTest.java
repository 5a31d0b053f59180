/*
 * @test
 * @summary push=URL,service=shop with push_period=1s delivers a profile of every window to
 *          a receiver that enforces Pyroscope's rules (PyroscopeReceiver: window, gzip,
 *          limits, no numeric labels, sample types, UTF-8, basic auth from push_auth=@FILE,
 *          tenant, static labels); through 500s, a 429 with Retry-After, a request the
 *          receiver drops unanswered (and does not keep), and the receiver down for 30 s then
 *          back, every window arrives, in order, none twice, the windows tiling time to the
 *          nanosecond; status and the exit summary count sent and retried; the credentials
 *          show nowhere; exit with the receiver hanging is bounded
 * @library /lib
 * @build HttpWorkload Endpoint heapsampler.PyroscopeReceiver
 * @run driver PushTest
 */
import heapsampler.AgentRunner;
import heapsampler.PyroscopeReceiver;
import heapsampler.PyroscopeReceiver.Mode;
import heapsampler.PyroscopeReceiver.Received;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

public class PushTest {
    static final String USER = "tenant-42", SECRET = "glc_push_secret_5e1f";

    public static void main(String[] args) throws Exception {
        Path dir = AgentRunner.newRunDirectory("receiver");
        Path auth = dir.resolve("auth");
        Files.writeString(auth, USER + ":" + SECRET + "\n");
        Files.setPosixFilePermissions(auth, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        String basic = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + SECRET)
                .getBytes(StandardCharsets.UTF_8));
        try (PyroscopeReceiver receiver = new PyroscopeReceiver(dir, basic, "acme")) {
            Endpoint.checkWorkload(AgentRunner.withAgent("push=" + receiver.url()
                    + ",service=shop,push_period=1s,push_labels=env=test;region=eu,"
                    + "push_tenant=acme,push_auth=@" + auth + ",interval=64k,log=info")
                    .label("push"), jvm -> run(jvm, receiver));
        }
    }

    static void run(AgentRunner.Running jvm, PyroscopeReceiver receiver) throws Exception {
        require(receiver.awaitReceived(3, 30_000), "3 windows within 30 s");
        receiver.mode(Mode.FAIL_500);
        Thread.sleep(2500);
        receiver.retryAfter(1);
        receiver.mode(Mode.TOO_MANY);
        Thread.sleep(2000);
        /* the receiver holds the request 3 s, then closes without an answer and keeps nothing:
         * the agent sends the same window once more (a never-answering receiver that keeps
         * what it gets is PushExactlyOnceTest's) */
        receiver.mode(Mode.HANG);
        Thread.sleep(3000);
        receiver.mode(Mode.OK);
        receiver.down(); /* 30 s: every window meanwhile is queued, then arrives in order */
        Thread.sleep(30_000);
        int before = receiver.received().size();
        receiver.up();
        require(receiver.awaitReceived(before + 28, 60_000), "the queued windows after the outage");
        String status = Endpoint.jcmd(jvm.process.pid(), "status");
        System.out.println("status: " + status);

        receiver.mode(Mode.HANG); /* exit with a receiver that never answers: bounded */
        long t0 = System.nanoTime();
        Files.writeString(jvm.dir.resolve("stop"), "");
        AgentRunner.Result r = jvm.finish();
        double exitSeconds = (System.nanoTime() - t0) / 1e9;
        receiver.mode(Mode.OK);
        System.out.println("exit took " + exitSeconds + " s");
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");
        require(exitSeconds < 5 + 6 * AgentRunner.timeoutFactor(), "exit within the push budget, took " + exitSeconds);

        List<Received> got = receiver.received();
        require(receiver.violations().isEmpty(), "no rule broken: " + receiver.violations());
        require(receiver.faultsAnswered(Mode.FAIL_500) >= 1 && receiver.faultsAnswered(Mode.TOO_MANY) >= 1
                && receiver.faultsAnswered(Mode.HANG) >= 1, "every fault was met");
        r.assertStderrContains("it is sent once more, the same window");
        long sites = 0;
        for (int i = 0; i < got.size(); i++) {
            Received p = got.get(i);
            require(p.name.equals("shop{env=test,region=eu}"), "name " + p.name);
            if (i > 0) {
                Received q = got.get(i - 1);
                require(p.from == q.until && p.until > p.from,
                        "windows in order, tiling time, none twice: " + q.from + ".." + q.until
                        + " then " + p.from + ".." + p.until + " (ns)");
                require(p.profile.timeNanos > q.profile.timeNanos, "window starts increase");
            }
            if (p.profile.sumWithFrame("alloc_space", "HttpWorkload.allocate") > 0) sites++;
        }
        require(sites >= got.size() - 2, "the allocation site in (nearly) every window: " + sites + "/" + got.size());
        /* status is printed on the JVM's stdout */
        r.assertStdoutContains("heapsampler: push: to " + receiver.url() + " as shop every 1000 ms, ");
        r.assertStdoutContains(" retried (");
        r.assertStderrContains("push: " + receiver.url() + ": ");       /* the first failure */
        r.assertStderrContains("answers again");
        r.assertStderrContains(" sent, ");                              /* the exit summary */
        for (String where : List.of(r.stdout, r.stderr, status))
            require(!where.contains(SECRET), "the credentials show nowhere");
        for (Received p : got)
            require(!String.join("\n", p.profile.strings).contains(SECRET), "no credentials in a profile");
        System.out.println(got.size() + " profiles received, attempts " + receiver.attempts());
    }

    static void require(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
