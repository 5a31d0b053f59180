/*
 * @test
 * @summary Only regular files are ever written. At startup a file= that names a device
 *          (/dev/null, a mknod copy of it as root), a FIFO, a directory, '.', '/', a path
 *          ending in '/', a symlink to a device or FIFO, or a final name too long for the
 *          temporary suffix stops the JVM before main with one line naming it; a FIFO that
 *          appears at the target during the run is not replaced: one line at exit, the
 *          program's exit code kept, the FIFO still there
 * @library /lib
 * @build OutputTrouble
 * @run driver OutputTargetTest
 */
import heapsampler.AgentRunner;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;

public class OutputTargetTest {
    public static void main(String[] args) throws Exception {
        Path dir = AgentRunner.newRunDirectory("targets");
        rejected("/dev/null", "is a character device");
        if (run("mknod", dir.resolve("null-copy").toString(), "c", "1", "3") == 0) {
            rejected(dir.resolve("null-copy").toString(), "is a character device");
        } else {
            System.out.println("skipped: mknod (not root)");
        }
        Path fifo = dir.resolve("fifo");
        if (run("mkfifo", fifo.toString()) != 0) throw new AssertionError("mkfifo failed");
        rejected(fifo.toString(), "is a FIFO");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        rejected(sub.toString(), "is a directory");
        rejected(dir + "/.", "'.' and '..' are directories");
        rejected("/", "no file name");
        rejected(dir + "/", "no file name");
        // (The issue's /proc/self/fd/1 is whatever stdout is: here a file, so link to a FIFO
        // and to the device instead.)
        Path toFifo = Files.createSymbolicLink(dir.resolve("to-fifo"), fifo);
        rejected(toFifo.toString(), "a symlink to a device, FIFO or socket");
        Path toNull = Files.createSymbolicLink(dir.resolve("to-null"), Paths.get("/dev/null"));
        rejected(toNull.toString(), "a symlink to a device, FIFO or socket");
        rejected(dir.resolve("n".repeat(244)).toString(), "too long to leave room");

        // At exit: a FIFO appeared at the target during the run.
        Path target = dir.resolve("p.pb.gz");
        AgentRunner.Result r = AgentRunner.withAgent("file=" + target).label("fifo-at-exit")
                .run("OutputTrouble", "fifo-at-target", target.toString(), "5");
        r.assertNoCrash().assertExitCode(5).assertStdoutContains(OutputTrouble.MARKER);
        r.assertAgentLineCount(1);
        r.assertAgentLine("cannot write '" + target + "': it is a FIFO, not a regular file");
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(target))
            r.fail("the FIFO at " + target + " was replaced");
    }

    static void rejected(String file, String reason) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=" + file).label("target")
                .run("OutputTrouble", "none", "-", "0");
        r.assertNoCrash().assertExitCodeNonZero().assertStdoutLacks(OutputTrouble.MARKER);
        r.assertAgentLineCount(1);
        String line = r.agentLines().get(0);
        if (!line.contains(file) || !line.contains(reason))
            r.fail("file=" + file + ": expected one line naming it and \"" + reason + "\", got \"" + line + "\"");
    }

    static int run(String... command) throws Exception {
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
