/*
 * @test
 * @summary push= exactly once where the receiver allows it: a receiver that answers 200 at
 *          once and then trickles its body a byte a second gets every window exactly once
 *          (the status line ends the attempt); one that takes the profile and never answers
 *          gets a window at most twice, both copies the same window (from, until, body),
 *          which is then dropped and counted; the URL ranges (from/until in nanoseconds,
 *          19 digits, as Pyroscope reads them) tile time exactly, equal to each profile's
 *          time_nanos/duration_nanos; status says what was sent again; a repeated error is
 *          logged once with a count
 * @library /lib
 * @build HttpWorkload Endpoint heapsampler.PyroscopeReceiver
 * @run driver PushExactlyOnceTest
 */
import heapsampler.AgentRunner;
import heapsampler.PyroscopeReceiver;
import heapsampler.PyroscopeReceiver.Mode;
import heapsampler.PyroscopeReceiver.Received;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class PushExactlyOnceTest {
    public static void main(String[] args) throws Exception {
        Path dir = AgentRunner.newRunDirectory("receiver");
        try (PyroscopeReceiver receiver = new PyroscopeReceiver(dir, null, null)) {
            receiver.mode(Mode.TRICKLE_200);
            Endpoint.checkWorkload(AgentRunner.withAgent("push=" + receiver.url()
                    + ",service=once,push_period=1s,push_timeout=2s,interval=64k,log=info")
                    .label("push-once"), jvm -> run(jvm, receiver));
        }
    }

    static void run(AgentRunner.Running jvm, PyroscopeReceiver receiver) throws Exception {
        require(receiver.awaitReceived(4, 30_000), "4 windows from the trickling receiver within 30 s");
        int trickled = receiver.received().size();
        receiver.mode(Mode.NEVER_ANSWER); /* a 2 s timeout, a second try, then dropped */
        Thread.sleep(9000);
        receiver.mode(Mode.OK);
        int before = receiver.received().size();
        require(receiver.awaitReceived(before + 3, 30_000), "the windows after the silence");
        AgentRunner.Result r = Endpoint.statusThenStop(jvm);
        String status = Endpoint.pushStatusLine(r);
        r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");
        require(receiver.violations().isEmpty(), "no rule broken: " + receiver.violations());

        List<Received> got = receiver.received();
        System.out.println(got.size() + " profiles received (" + trickled + " while trickling), "
                + receiver.attempts() + " attempts");
        Map<Long, List<Received>> byStart = new LinkedHashMap<>();
        for (Received p : got) byStart.computeIfAbsent(p.from, k -> new ArrayList<>()).add(p);
        int twice = 0;
        for (List<Received> copies : byStart.values()) {
            Received first = copies.get(0);
            if (copies.size() == 1) continue;
            require(copies.size() == 2, "a window at most twice: " + copies.size() + " copies of " + first.from);
            Received second = copies.get(1);
            require(first.mode == Mode.NEVER_ANSWER, "only a window nobody answered comes twice, not one received in "
                    + first.mode);
            require(second.until == first.until && Arrays.equals(second.body, first.body),
                    "the second copy is the same window: from, until and body");
            twice++;
        }
        require(twice >= 1, "the never-answering receiver got a window twice");
        for (Received p : got)
            if (p.mode == Mode.TRICKLE_200 || p.mode == Mode.OK)
                require(byStart.get(p.from).size() == 1, "a window answered 200 arrives exactly once: " + p.from);

        /* the distinct windows tile time: each starts where the one before ended, to the ns */
        List<Received> windows = new ArrayList<>();
        for (List<Received> copies : byStart.values()) windows.add(copies.get(0));
        windows.sort(Comparator.comparingLong(w -> w.from));
        for (int i = 1; i < windows.size(); i++) {
            Received q = windows.get(i - 1), p = windows.get(i);
            require(p.from == q.until, "windows tile time: " + q.from + ".." + q.until + " then " + p.from + ".." + p.until);
        }
        require(windows.get(0).from % 1_000_000_000L != 0 || windows.get(1).from % 1_000_000_000L != 0,
                "from/until carry nanoseconds, not rounded seconds");

        /* status and the log: what was sent again, what was dropped, each error once */
        require(status.matches("(?s).* retried \\([1-9][0-9]* sent again after no answer, same window\\).*"),
                "status counts the windows sent again: " + status);
        require(status.matches("(?s).* [1-9][0-9]* unanswered twice.*"), "status counts the windows dropped: " + status);
        /* the same failure (numbers aside) is logged once; a window whose second try was cut
         * when the receiver changed its mode fails another way ("Empty reply") */
        long timedOut = r.stderr.lines().filter(l -> l.contains("did not answer the profile of")
                && l.contains("Operation timed out")).count();
        long notAnswered = r.stderr.lines().filter(l -> l.contains("did not answer the profile of")).count();
        require(timedOut == 1 && notAnswered <= 2, "one line per failure for the windows dropped "
                + "unanswered, not " + timedOut + " (timed out), " + notAnswered + " (in all)");
        r.assertStderrContains("sent whole twice");
        r.assertStderrContains("answers again");
    }

    static void require(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
