/*
 * @test
 * @summary push= refusals at startup, each one line naming the option (the JVM does not
 *          start): a malformed URL, an unknown scheme, credentials in the URL, an unreadable,
 *          empty or FIFO push_auth= file, one its group or others may read (saying chmod 600),
 *          credentials given inline, bad push_labels= syntax, push_period= below 1s,
 *          push_timeout= above 60s, and libcurl missing (the line names the package libcurl4);
 *          and a receiver that is never there: the application runs and exits with its own
 *          code on time, the exit summary counts what was retried and dropped at exit
 * @library /lib
 * @build HttpWorkload
 * @run driver PushRefusalTest
 */
import heapsampler.AgentRunner;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

public class PushRefusalTest {
    public static void main(String[] args) throws Exception {
        refused("push=localhost:4040", "heapsampler: bad option 'push=localhost:4040': not a URL");
        refused("push=gopher://127.0.0.1:4040", "heapsampler: bad option 'push=gopher://127.0.0.1:4040': "
                + "unknown scheme (http:// or https:// only); accepted: ");
        refused("push=http://user:pw@127.0.0.1", "': credentials in the URL (give them with push_auth=@FILE)");
        refused("push=http://127.0.0.1:4040,push_auth=@no-such-file",
                "heapsampler: bad option 'push_auth=@no-such-file': cannot read it: No such file");
        Path dir = AgentRunner.newRunDirectory("auth");
        Path empty = dir.resolve("empty");
        Files.writeString(empty, "\n");
        Files.setPosixFilePermissions(empty, PosixFilePermissions.fromString("rw-------"));
        refused("push=http://127.0.0.1:4040,push_auth=@" + empty, "': the file is empty");
        Path shared = dir.resolve("shared");
        Files.writeString(shared, "user:s3cret\n");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-r--r--"));
        refused("push=http://127.0.0.1:4040,push_auth=@" + shared, "heapsampler: bad option 'push_auth=@"
                + shared + "': it is readable or writable by its group or others (mode 0644): make it "
                + "private with chmod 600 " + shared);
        Path fifo = dir.resolve("fifo");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
            refused("push=http://127.0.0.1:4040,push_auth=@" + fifo, "': cannot read it: not a regular file");
        }
        refused("push=http://127.0.0.1:4040,push_auth=s3cret", "heapsampler: bad option "
                + "'push_auth=s3cret': not @FILE");
        refused("push=http://127.0.0.1:4040,push_labels=env:prod",
                "heapsampler: bad option 'push_labels=env:prod': a label is not k=v");
        refused("push=http://127.0.0.1:4040,push_labels=9env=prod",
                "heapsampler: bad option 'push_labels=9env=prod': a label name is not");
        refused("push=http://127.0.0.1:4040,push_period=100ms",
                "heapsampler: bad option 'push_period=100ms': too short");
        refused("push=http://127.0.0.1:4040,push_timeout=2m",
                "heapsampler: bad option 'push_timeout=2m': too long");
        AgentRunner.Result r = AgentRunner.withAgent("push=http://127.0.0.1:4040")
                .env("HEAPSAMPLER_LIBCURL", "/nonexistent/libcurl.so.4").label("nocurl").run("HttpWorkload");
        r.assertNoCrash().assertExitCodeNonZero().assertStdoutLacks("WORKLOAD DONE")
                .assertStderrContains("heapsampler: bad option 'push=http://127.0.0.1:4040': "
                        + "/nonexistent/libcurl.so.4 cannot be loaded (install the Debian package libcurl4)");
        nobodyThere();
    }

    static void refused(String options, String line) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(options).label("refused").run("HttpWorkload");
        r.assertNoCrash().assertExitCodeNonZero().assertStderrContains(line)
                .assertStdoutLacks("WORKLOAD DONE");
        long lines = r.stderr.lines().filter(l -> l.startsWith("heapsampler:")).count();
        if (lines != 1) throw new AssertionError("one line, not " + lines + ":\n" + r.stderr);
    }

    /** A port nobody listens on: connection refused at every try. */
    static void nobodyThere() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        AgentRunner.Running jvm = AgentRunner.withAgent("push=http://127.0.0.1:" + port
                + ",push_period=1s").label("nobody").start("HttpWorkload");
        try {
            Thread.sleep(4000);
            long t0 = System.nanoTime();
            Files.writeString(jvm.dir.resolve("stop"), "");
            AgentRunner.Result r = jvm.finish();
            double seconds = (System.nanoTime() - t0) / 1e9;
            r.assertNoCrash().assertExitCode(HttpWorkload.EXIT_CODE).assertStdoutContains("WORKLOAD DONE");
            r.assertStderrContains("heapsampler: push: http://127.0.0.1:" + port + ": Couldn't connect to server");
            r.assertStderrContains("heapsampler: push: 0 sent, ");
            if (!r.stderr.matches("(?s).*push: 0 sent, [1-9][0-9]* retried \\(0 sent again after no answer, same window\\), "
                    + "0 queued \\(0 bytes; at most [0-9]+, [0-9]+ bytes\\); dropped: 0 queue full, "
                    + "0 refused, 0 unanswered twice, 0 expired, [1-9][0-9]* at exit.*"))
                throw new AssertionError("exit summary:\n" + r.stderr);
            if (seconds > 5 + 6 * AgentRunner.timeoutFactor())
                throw new AssertionError("exit took " + seconds + " s");
        } finally {
            jvm.close();
        }
    }
}
