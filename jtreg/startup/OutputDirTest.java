/*
 * @test
 * @summary An output file that cannot be written fails fast at startup (before main runs)
 *          with one message naming the directory and the reason, not at exit after the
 *          whole run was profiled for nothing
 * @library /lib
 * @build ExitWith
 * @run driver OutputDirTest
 */
import heapsampler.AgentRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

public class OutputDirTest {
    public static void main(String[] args) throws Exception {
        rejected("/nonexistent-dir/x.pb.gz", "/nonexistent-dir", "No such file or directory");
        rejected("missing-dir/x-%p.pb.gz", "missing-dir", "No such file or directory");

        Path scratch = AgentRunner.newRunDirectory("output-dirs");
        Path plainFile = Files.writeString(scratch.resolve("plain-file"), "not a directory");
        rejected(plainFile + "/x.pb.gz", plainFile.toString(), "Not a directory");

        Path readOnly = Files.createDirectory(scratch.resolve("read-only"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        if (Files.isWritable(readOnly)) {
            // root ignores permission bits: nothing to test there.
            System.out.println("skipped: the read-only directory case (running as root)");
        } else {
            rejected(readOnly + "/x.pb.gz", readOnly.toString(), "Permission denied");
        }
    }

    static void rejected(String file, String directory, String reason) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("file=" + file).label("bad-output")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCodeNonZero().assertStdoutLacks(ExitWith.MARKER);
        r.assertAgentLineCount(1);
        String line = r.agentLines().get(0);
        if (!line.contains(directory) || !line.contains(reason)) {
            r.fail("file=" + file + ": expected one line naming \"" + directory + "\" and \""
                    + reason + "\", got \"" + line + "\"");
        }
    }
}
