/*
 * @test
 * @summary Output that cannot be written: a missing directory fails at startup; a write
 *          that fails at exit (directory deleted, the file size limit reached, a directory at
 *          the target) prints one "cannot write '<path>': <step>: <reason>" line, keeps
 *          the program's exit code, leaves an older profile intact and no temporary file
 *          behind; a symlink planted at the target is replaced, not followed
 * @library /lib
 * @build AllocProfiles OutputTrouble
 * @run driver UnwritableOutputTest
 */
import heapsampler.AgentRunner;
import heapsampler.Pprof;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class UnwritableOutputTest {
    public static void main(String[] args) throws Exception {
        missingDirectoryFailsAtStartup();
        for (int code : new int[] {0, 3}) deletedDirectoryAtExit(code);
        olderProfileSurvivesAFailedWrite();
        readOnlyDirectoryAtExit();
        directoryAtTargetLeavesNoTemporaryFile();
        symlinkAtTargetIsReplaced(true);
        symlinkAtTargetIsReplaced(false);
    }

    /** (1) The directory does not exist: the JVM does not start, the message names it. */
    static void missingDirectoryFailsAtStartup() throws Exception {
        Path scratch = AgentRunner.newRunDirectory("missing");
        Path dir = scratch.resolve("no-such-dir");
        AgentRunner.Result r = AgentRunner.withAgent("file=" + dir + "/p.pb.gz")
                .label("missing-dir").run("OutputTrouble", "none", "-", "0");
        r.assertNoCrash().assertExitCodeNonZero().assertStdoutLacks(OutputTrouble.MARKER);
        String line = r.assertAgentLine(dir.toString());
        if (!line.contains("No such file or directory")) r.fail("no reason in \"" + line + "\"");
    }

    /** (2) The directory is deleted while the program runs: one line at exit, same code. */
    static void deletedDirectoryAtExit(int code) throws Exception {
        Path dir = AgentRunner.newRunDirectory("doomed");
        Path target = dir.resolve("p.pb.gz");
        AgentRunner.Result r = AgentRunner.withAgent("file=" + target).label("deleted-" + code)
                .run("OutputTrouble", "delete-dir", dir.toString(), Integer.toString(code));
        r.assertNoCrash().assertExitCode(code).assertStdoutContains(OutputTrouble.MARKER);
        expectOneWriteError(r, target, "No such file or directory");
        if (Files.exists(dir)) r.fail(dir + " exists again after the run");
    }

    /**
     * (3) A failed write leaves the previous profile as it was. The failure: the program
     * lowers its file size limit (RLIMIT_FSIZE, with prlimit) below the profile's size, so
     * the agent's write of its temporary file fails with "File too large".
     */
    static void olderProfileSurvivesAFailedWrite() throws Exception {
        Path dir = AgentRunner.newRunDirectory("keep-old");
        Path target = dir.resolve("p.pb.gz");
        AgentRunner.Result first = AgentRunner.withAgent("file=" + target).label("old-profile")
                .run("OutputTrouble", "none", "-", "0");
        first.assertNoCrash().assertExitCode(0).assertAgentLineCount(0);
        Pprof.read(target).validate();
        byte[] old = Files.readAllBytes(target);

        if (!Files.isExecutable(Path.of("/usr/bin/prlimit")) && !Files.isExecutable(Path.of("/bin/prlimit"))) {
            System.out.println("skipped: the failed-write case (prlimit not found: apt-get install util-linux)");
            return;
        }
        AgentRunner.Result r = AgentRunner.withAgent("file=" + target).label("size-limit")
                .run("OutputTrouble", "file-size-limit", target.toString(), "0");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(OutputTrouble.MARKER);
        expectOneWriteError(r, target, "File too large");
        if (!Arrays.equals(old, Files.readAllBytes(target))) {
            r.fail("the older profile at " + target + " was changed by the failed write");
        }
        // Only the older profile is there: the temporary file is gone.
        List<String> others = list(dir).stream().filter(n -> !n.equals("p.pb.gz"))
                .collect(Collectors.toList());
        if (!others.isEmpty()) r.fail("unexpected files next to the profile: " + others);
    }

    /** The directory becomes read-only while the program runs (not testable as root). */
    static void readOnlyDirectoryAtExit() throws Exception {
        Path dir = AgentRunner.newRunDirectory("read-only");
        Path target = dir.resolve("p.pb.gz");
        Files.writeString(target, "an older profile");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        boolean root = Files.isWritable(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (root) {
            // root ignores permission bits: nothing to test there.
            System.out.println("skipped: the read-only directory case (running as root)");
            return;
        }
        try {
            AgentRunner.Result r = AgentRunner.withAgent("file=" + target).label("read-only")
                    .run("OutputTrouble", "read-only-dir", dir.toString(), "3");
            r.assertNoCrash().assertExitCode(3).assertStdoutContains(OutputTrouble.MARKER);
            expectOneWriteError(r, target, "Permission denied");
            if (!Files.readString(target).equals("an older profile")) {
                r.fail("the older profile at " + target + " was changed by the failed write");
            }
        } finally {
            // jtreg must be able to clean the scratch directory up.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** A directory at the target: the rename fails, the temporary file is removed. */
    static void directoryAtTargetLeavesNoTemporaryFile() throws Exception {
        Path dir = AgentRunner.newRunDirectory("dir-at-target");
        Path target = dir.resolve("p.pb.gz");
        AgentRunner.Result r = AgentRunner.withAgent("file=" + target).label("dir-at-target")
                .run("OutputTrouble", "dir-at-target", target.toString(), "3");
        r.assertNoCrash().assertExitCode(3).assertStdoutContains(OutputTrouble.MARKER);
        expectOneWriteError(r, target, "it is a directory, not a regular file; refusing to replace it");
        List<String> files = list(dir);
        if (!files.equals(List.of("p.pb.gz")) || !Files.isDirectory(target)) {
            r.fail("expected only the directory p.pb.gz to remain, found " + files);
        }
    }

    /**
     * (4) A symlink planted at the target (to an existing file, or dangling) is replaced by
     * the profile; the file it points to is neither written nor created.
     */
    static void symlinkAtTargetIsReplaced(boolean victimExists) throws Exception {
        Path dir = AgentRunner.newRunDirectory("symlink");
        Path victim = dir.resolve("victim.txt");
        String content = "must not be overwritten\n";
        if (victimExists) Files.writeString(victim, content);
        Path target = dir.resolve("p.pb.gz");
        Files.createSymbolicLink(target, victim);

        AgentRunner.Result r = AgentRunner.withAgent("file=" + target)
                .label(victimExists ? "symlink" : "dangling-symlink")
                .run("OutputTrouble", "none", "-", "0");
        r.assertNoCrash().assertExitCode(0).assertAgentLineCount(0);
        if (Files.isSymbolicLink(target) || !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            r.fail(target + " is still a symlink (or not a regular file) after the run");
        }
        Pprof.read(target).validate();
        if (victimExists) {
            if (!Files.readString(victim).equals(content)) r.fail("the symlink was followed: "
                    + victim + " was overwritten");
        } else if (Files.exists(victim, LinkOption.NOFOLLOW_LINKS)) {
            r.fail("the dangling symlink was followed: " + victim + " was created");
        }
    }

    /** Exactly one agent line: "cannot write '<target>': ...<reason>". */
    static void expectOneWriteError(AgentRunner.Result r, Path target, String reason) {
        r.assertAgentLineCount(1);
        String line = r.agentLines().get(0);
        String start = AgentRunner.AGENT_PREFIX + "cannot write '" + target + "': ";
        if (!line.startsWith(start) || !line.endsWith(reason)) {
            r.fail("expected \"" + start + "...: " + reason + "\", got \"" + line + "\"");
        }
    }

    static List<String> list(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
