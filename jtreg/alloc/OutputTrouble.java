/*
 * OutputTrouble: a program that sabotages its own profile output just before it ends,
 * for UnwritableOutputTest. It allocates about 4 MB (so the profile has samples), then:
 *
 *   none         does nothing else
 *   delete-dir   deletes DIR (which must be empty): the agent's directory is gone at exit
 *   file-size-limit  lowers its own RLIMIT_FSIZE to 1 KiB (prlimit): the agent's write
 *                of the profile (a few KiB) fails with EFBIG (HotSpot ignores SIGXFSZ), the
 *                lines on stdout and stderr still fit; the temporary
 *                names cannot be taken instead: they are random (src/output/file_output.c)
 *   dir-at-target  creates a directory at TARGET: the agent must not replace it
 *   fifo-at-target creates a FIFO at TARGET (mkfifo): the agent must not replace it
 *   read-only-dir  makes DIR read-only (r-x): no file can be created in it (unless root)
 *
 * and then returns normally (CODE 0) or calls System.exit(CODE).
 *
 * Arguments: ACTION PATH CODE (PATH is DIR or TARGET, ignored by "none").
 */
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

public class OutputTrouble {
    public static final String MARKER = "OutputTrouble: main ran";

    static void mkfifo(Path path) throws IOException {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
            if (p.waitFor() != 0) throw new IOException("mkfifo " + path + " failed");
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    /* prlimit --pid SELF --fsize=BYTES (util-linux). */
    static void limitFileSize(long bytes) throws IOException {
        try {
            Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(ProcessHandle.current().pid()),
                    "--fsize=" + bytes + ":" + bytes).inheritIO().start();
            if (p.waitFor() != 0) throw new IOException("prlimit --fsize failed");
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    public static void main(String[] args) throws IOException {
        String action = args[0];
        Path path = Paths.get(args[1]);
        int code = Integer.parseInt(args[2]);
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 4096; i++) kept.add(new byte[1024]);
        switch (action) {
            case "none" -> { }
            case "delete-dir" -> Files.delete(path);
            case "file-size-limit" -> limitFileSize(1024);
            case "dir-at-target" -> Files.createDirectory(path);
            case "fifo-at-target" -> mkfifo(path);
            case "read-only-dir" -> Files.setPosixFilePermissions(path,
                    PosixFilePermissions.fromString("r-xr-xr-x"));
            default -> throw new IllegalArgumentException("unknown action " + action);
        }
        System.out.println(MARKER + ", " + action + ", kept " + kept.size() + " arrays");
        if (code != 0) System.exit(code);
    }
}
