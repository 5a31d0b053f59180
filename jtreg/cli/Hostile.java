/*
 * Hostile: what the tests of the command against a hostile target share (root only).
 *
 * - A user made for the test (useradd), who runs the target JVM and plays the attacker:
 *   sh(...) runs a shell script as that user; spawn(...) a background process.
 * - The command paused at one of its steps (HEAPSAMPLER_TEST_FAULTS=cli_stop_at=STEP: the
 *   command, or its child on the target's side, stops itself there), so that the
 *   attacker's swap lands between two steps, deterministically: pause() returns once a
 *   heapsampler process is stopped, resume() continues it, finish() waits for its result;
 *   pauseWalking() also forces the path walk of kernels without openat2 (cli_no_openat2).
 * - Witnesses of what the command must not touch: a root-only secret file whose access
 *   time shows any read, and a root-only victim directory that must stay empty with its
 *   modification time unchanged.
 */
import heapsampler.Cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

public final class Hostile implements AutoCloseable {
    /** The bound of every refusal: quick, whatever --timeout says. */
    public static final Duration QUICK = Duration.ofSeconds(8);

    /** The command runs as root does from a login shell or sudo: with the supplementary group
     * 0 (root's group opens what is mode 0640 or 0770 root:root). */
    private static List<String> asRoot() {
        return List.of(Cli.requireTool("setpriv").toString(), "--groups=0");
    }

    /** heapsampler ARGS as root with its group 0. */
    public static Cli.Result run(String... args) throws Exception {
        return Cli.runWith(asRoot(), args);
    }

    public final String name;
    public final String uid;
    public final String gid;
    private final List<String> as;
    private final List<Process> spawned = new ArrayList<>();

    private Hostile(String name) throws Exception {
        this.name = name;
        Cli.system("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                "--shell", "/usr/sbin/nologin", name);
        uid = Cli.system("id", "-u", name).trim();
        gid = Cli.system("id", "-g", name).trim();
        as = List.of(Cli.requireTool("setpriv").toString(), "--reuid=" + uid, "--regid=" + gid, "--clear-groups");
    }

    /** A new user for this test (root, setpriv and useradd needed: skipped otherwise). */
    public static Hostile create(String tag) throws Exception {
        Cli.requireRoot("a hostile target user made for the test");
        Cli.requireTool("setpriv");
        Cli.requireTool("useradd");
        return new Hostile("hs" + tag + ProcessHandle.current().pid());
    }

    /** The prefix that runs a command as the user. */
    public String[] prefix() {
        return as.toArray(String[]::new);
    }

    /** Runs a shell script as the user; it must succeed. */
    public String sh(String script) throws Exception {
        List<String> command = new ArrayList<>(as);
        command.addAll(List.of("/bin/sh", "-c", script));
        return Cli.system(command.toArray(String[]::new));
    }

    /** Starts a command as the user in the background (ended by close()); waits for a line
     * starting with `ready` on its stdout when ready is not null. */
    public Process spawn(String ready, String... command) throws Exception {
        List<String> full = new ArrayList<>(as);
        full.addAll(Arrays.asList(command));
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        spawned.add(p);
        if (ready != null) {
            var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
            String line = in.readLine();
            if (line == null || !line.startsWith(ready)) throw new AssertionError("spawned " + full + " said " + line);
        }
        return p;
    }

    @Override
    public void close() throws Exception {
        for (Process p : spawned) {
            p.destroyForcibly().waitFor();
        }
        Cli.system("sh", "-c", "pkill -KILL -u " + name + "; sleep 0.2; true");
        Cli.system("userdel", name);
        Path perf = Paths.get("/tmp/hsperfdata_" + name);
        if (Files.isDirectory(perf)) Cli.system("rm", "-rf", perf.toString());
    }

    /** A working directory owned by the user, as a service's would be. */
    public Path directory(String label) throws Exception {
        Path dir = heapsampler.AgentRunner.newRunDirectory(label);
        Cli.system("chown", uid, dir.toString());
        return dir;
    }

    /** The newest file in the target's /tmp whose name matches the glob: the one the paused
     * command made (a command killed before may have left older ones). */
    public static Path theFile(Path tmp, String glob) throws IOException {
        Path newest = null;
        try (var files = Files.newDirectoryStream(tmp, glob)) {
            for (Path f : files) {
                if (newest == null || Files.getLastModifiedTime(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                        .compareTo(Files.getLastModifiedTime(newest, java.nio.file.LinkOption.NOFOLLOW_LINKS)) > 0) newest = f;
            }
        }
        if (newest == null) throw new AssertionError("no " + glob + " in " + tmp);
        return newest;
    }

    /** The command must not have waited: a refusal comes at once. */
    public static Cli.Result assertQuick(Cli.Result r) {
        if (r.elapsed.compareTo(QUICK) > 0) r.fail("took " + r.elapsed.toMillis() + " ms: it waited instead of refusing");
        return r;
    }

    // ---- the command, paused at a step ----

    /** A command run in the background with a pause at one step. */
    public static final class Paused {
        private final CompletableFuture<Cli.Result> result;
        private final String step;
        private long stopped = -1;

        private Paused(String step, boolean walk, String... args) {
            this.step = step;
            List<String> env = new ArrayList<>(asRoot());
            env.addAll(List.of("/usr/bin/env", "HEAPSAMPLER_TEST_FAULTS=cli_stop_at=" + step + (walk ? ",cli_no_openat2" : "")));
            result = CompletableFuture.supplyAsync(() -> {
                try {
                    return Cli.runWith(env, args);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
        }

        /** The pid of the heapsampler process stopped at the step. */
        public long stoppedPid() {
            return stopped;
        }

        private Paused awaitStop() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                for (ProcessHandle h : ProcessHandle.current().descendants().collect(Collectors.toList())) {
                    if (isStoppedCommand(h.pid())) {
                        stopped = h.pid();
                        return this;
                    }
                }
                if (result.isDone()) throw new AssertionError("the command ended before stopping at " + step + "\n" + result.get().describe());
                Thread.sleep(20);
            }
            throw new AssertionError("the command did not stop at " + step + " within 30 s");
        }

        /** Lets the command go on. */
        public Paused resume() throws Exception {
            Cli.system("kill", "-CONT", Long.toString(stopped));
            return this;
        }

        public Cli.Result finish() throws Exception {
            return result.get(120, TimeUnit.SECONDS);
        }
    }

    /** Runs `heapsampler ARGS` until it stops at step (see Paused). */
    public static Paused pause(String step, String... args) throws Exception {
        return new Paused(step, false, args).awaitStop();
    }

    /** The same with paths resolved one component at a time, as on kernels without openat2. */
    public static Paused pauseWalking(String step, String... args) throws Exception {
        return new Paused(step, true, args).awaitStop();
    }

    private static boolean isStoppedCommand(long pid) {
        try {
            String comm = Cli.readProc(Paths.get("/proc", Long.toString(pid), "comm")).trim();
            return comm.equals(Cli.EXECUTABLE_NAME) && state(pid) == 'T';
        } catch (IOException e) {
            return false;
        }
    }

    /** The state letter of /proc/PID/stat ('?' when gone). */
    public static char state(long pid) {
        try {
            String stat = Cli.readProc(Paths.get("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (IOException e) {
            return '?';
        }
    }

    // ---- witnesses ----

    /** A root-only file (0640 root:root: readable through root's group 0, as /etc/shadow is by
     * its group) holding text, with an access time far in the past: any read moves it. */
    public static final class Secret {
        public final Path path;
        public final String text;

        public Secret(Path path, String text) throws Exception {
            this.path = path;
            this.text = text;
            Files.writeString(path, text);
            Cli.system("chown", "root:root", path.toString());
            Cli.system("chmod", "0640", path.toString());
            Cli.system("touch", "-a", "-d", "2001-01-01", path.toString());
        }

        public void assertUnread(Cli.Result r) throws IOException {
            FileTime atime = (FileTime) Files.getAttribute(path, "unix:lastAccessTime");
            if (atime.toInstant().isAfter(java.time.Instant.parse("2002-01-01T00:00:00Z"))) r.fail(path + " was read (its access time moved to " + atime + ")");
            if (r.stdout.contains(text.trim()) || r.stderr.contains(text.trim())) r.fail("the secret was printed");
        }
    }

    /** A root-only directory (0770 root:root: writable through group 0) that must stay
     * empty and unmodified. */
    public static final class Victim {
        public final Path path;
        private final FileTime mtime;

        public Victim(Path path) throws Exception {
            this.path = Files.createDirectories(path);
            Cli.system("chown", "root:root", path.toString());
            Cli.system("chmod", "0770", path.toString());
            Cli.system("touch", "-m", "-d", "2001-01-01", path.toString());
            mtime = Files.getLastModifiedTime(path);
        }

        public void assertUntouched(Cli.Result r) throws IOException {
            try (var files = Files.list(path)) {
                List<Path> inside = files.collect(Collectors.toList());
                if (!inside.isEmpty()) r.fail("written where the target chose: " + inside);
            }
            if (!Files.getLastModifiedTime(path).equals(mtime)) r.fail(path + " was modified (a file made and removed there)");
        }

        public void remove() throws Exception {
            Cli.system("rm", "-rf", path.toString());
        }
    }

    /**
     * Each attack of a test, run one after the other: a failed one is reported and the
     * next still runs, so one run shows every attack the command does not refuse; the test
     * fails at the end if any did.
     */
    public static final class Attacks {
        public interface Body {
            void run() throws Exception;
        }

        private final List<String> failed = new ArrayList<>();

        public void run(String name, Body body) {
            System.out.println("==== attack: " + name);
            try {
                body.run();
                System.out.println("==== refused as it should be: " + name);
            } catch (Throwable e) {
                String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                failed.add(name + ": " + e.getClass().getSimpleName() + ": " + why);
                System.out.println("==== NOT REFUSED: " + name);
                e.printStackTrace(System.out);
            }
        }

        public void assertAllRefused() {
            if (!failed.isEmpty()) {
                throw new AssertionError(failed.size() + " attack(s) not refused as they should be:\n" + String.join("\n", failed));
            }
        }
    }

    /** No raw control character but newline and tab (C0, DEL, C1): the target's bytes were
     * shown escaped. */
    public static void assertNoControlBytes(Cli.Result r) {
        for (String text : List.of(r.stdout, r.stderr)) {
            for (char c : text.toCharArray()) {
                if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)) {
                    r.fail("a raw control character 0x" + Integer.toHexString(c) + " was printed");
                }
            }
        }
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
