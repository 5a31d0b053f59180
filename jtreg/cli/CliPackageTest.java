/*
 * @test
 * @summary The Debian package: `cpack -G DEB` of the build directory makes heapsampler's .deb
 *          (depends on libc6 and zlib1g; the command in /usr/bin, the agent in
 *          /usr/lib/heapsampler, heapsampler(1) in /usr/share/man/man1). Extracted with
 *          dpkg-deb -x (never installed), the binaries need no library outside those two
 *          packages, its command prints the build's version, loads its
 *          own library (found relative to itself) into a running JVM and answers status.
 *          The man page renders without warnings and lists the same verbs and exit codes
 *          as `heapsampler help`
 * @library /lib
 * @build CliTarget
 * @run driver CliPackageTest
 */
import heapsampler.AgentRunner;
import heapsampler.Cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class CliPackageTest {
    static final List<String> CONTENTS = List.of("./usr/bin/heapsampler",
            "./usr/lib/heapsampler/libheapsampler.so", "./usr/share/man/man1/heapsampler.1.gz");

    public static void main(String[] args) throws Exception {
        Path cpack = Cli.requireTool("cpack");
        Path dpkgDeb = Cli.requireTool("dpkg-deb");
        Path build = AgentRunner.agentLibrary().getParent();
        Path config = build.resolve("CPackConfig.cmake");
        if (!Files.isRegularFile(config)) throw new AssertionError(config + " missing: the build has no CPack rules");

        Path work = AgentRunner.newRunDirectory("package");
        Cli.runCommand(List.of(cpack.toString(), "--config", config.toString(), "-G", "DEB",
                "-B", work.toString()), Duration.ofSeconds(300)).assertExit(0);
        Path deb;
        try (var files = Files.list(work)) {
            List<Path> debs = files.filter(f -> f.toString().endsWith(".deb")).toList();
            if (debs.size() != 1) throw new AssertionError("expected one .deb in " + work + ": " + debs);
            deb = debs.get(0);
        }
        String version = Cli.run("--version").assertOk().stdout.trim();
        if (!deb.getFileName().toString().matches("heapsampler_[0-9.]+_[a-z0-9]+\\.deb")) {
            throw new AssertionError("package file name " + deb.getFileName());
        }

        Cli.Result info = Cli.runCommand(List.of(dpkgDeb.toString(), "--info", deb.toString()),
                Duration.ofSeconds(30)).assertExit(0);
        info.assertStdoutMatches("^ Package: heapsampler$").assertStdoutMatches("^ Depends: .*libc6")
                .assertStdoutMatches("^ Depends: .*zlib1g");
        String debVersion = info.linesWith(" Version: ").get(0).replace(" Version: ", "").trim();
        if (!version.contains(debVersion)) info.fail("package version " + debVersion + ", command says " + version);

        Cli.Result contents = Cli.runCommand(List.of(dpkgDeb.toString(), "--contents", deb.toString()),
                Duration.ofSeconds(30)).assertExit(0);
        for (String file : CONTENTS) contents.assertStdoutMatches("\\s" + Pattern.quote(file) + "$");
        contents.assertStdoutMatches("^-rwxr-xr-x .*\\./usr/bin/heapsampler$");

        Path root = work.resolve("root");
        Cli.runCommand(List.of(dpkgDeb.toString(), "-x", deb.toString(), root.toString()),
                Duration.ofSeconds(30)).assertExit(0);
        dependsCoversNeeds(root);
        extractedWorks(root, version);
        manPage(root.resolve("usr/share/man/man1/heapsampler.1.gz"));
    }

    /** Every shared library the two binaries need comes from libc6 or zlib1g (the Depends). */
    static void dependsCoversNeeds(Path root) throws Exception {
        var readelf = Cli.findTool("readelf");
        if (readelf.isEmpty()) {
            System.out.println("readelf not found (binutils): the binaries' needs are not checked against Depends");
            return;
        }
        Pattern libc6 = Pattern.compile("(libc|libm|libpthread|libdl|librt|ld-linux-x86-64)\\.so\\.[0-9]+");
        Pattern zlib1g = Pattern.compile("libz\\.so\\.1");
        for (String file : List.of("usr/bin/heapsampler", "usr/lib/heapsampler/libheapsampler.so")) {
            Cli.Result r = Cli.runCommand(List.of(readelf.get().toString(), "-d", root.resolve(file).toString()),
                    Duration.ofSeconds(30)).assertExit(0);
            Matcher m = Pattern.compile("\\(NEEDED\\)\\s+Shared library: \\[([^]]+)\\]").matcher(r.stdout);
            int needs = 0;
            while (m.find()) {
                needs++;
                String lib = m.group(1);
                if (!libc6.matcher(lib).matches() && !zlib1g.matcher(lib).matches()) {
                    r.fail(file + " needs " + lib + ", which neither libc6 nor zlib1g provides");
                }
            }
            if (needs == 0) r.fail(file + ": no NEEDED entry read");
        }
    }

    /** The extracted command: its version, and load + status with its own library. */
    static void extractedWorks(Path root, String version) throws Exception {
        Path exe = root.resolve("usr/bin/heapsampler");
        Path lib = root.resolve("usr/lib/heapsampler/libheapsampler.so").toRealPath();
        Cli.Result v = Cli.runCommand(List.of(exe.toString(), "--version"), Duration.ofSeconds(30)).assertOk();
        if (!v.stdout.trim().equals(version)) v.fail("the packaged command says " + v.stdout.trim() + ", the build's " + version);
        try (Cli.Target t = Cli.Target.withoutAgent().jvmFlags("-Xmx64m", "-XX:+EnableDynamicAgentLoading")) {
            t.start("CliTarget");
            Cli.runCommand(List.of(exe.toString(), "load", t.pidString()), Duration.ofSeconds(60)).assertOk();
            Cli.runCommand(List.of(exe.toString(), "status", t.pidString()), Duration.ofSeconds(60)).assertOk()
                    .assertStdoutContains("state: running");
            String maps = Cli.readProc(Paths.get("/proc/" + t.pid() + "/maps"));
            if (!maps.contains(lib.toString())) {
                throw new AssertionError("the JVM did not map the packaged library " + lib + " (the command's relative lookup)");
            }
            t.assertUndisturbed(CliTarget.EXIT_CODE);
        }
    }

    /** heapsampler(1): renders without warnings; the verbs and exit codes of help. */
    static void manPage(Path page) throws Exception {
        Path groff = Cli.findTool("groff").orElse(null);
        String text;
        if (groff == null) {
            System.out.println("groff not found: the man page's rendering is not checked");
            Cli.Result z = Cli.runCommand(List.of(Cli.requireTool("zcat").toString(), page.toString()), Duration.ofSeconds(30));
            text = z.assertExit(0).stdout.replaceAll("\\\\f[BIRP]", "").replace("\\-", "-");
        } else {
            Cli.Result r = Cli.runCommand(List.of(Cli.requireTool("sh").toString(), "-c",
                    "zcat '" + page + "' | " + groff + " -man -Tascii -ww -rLL=200n -P-cbou"), Duration.ofSeconds(30));
            r.assertExit(0);
            if (!r.stderr.isEmpty()) r.fail("groff warns about heapsampler(1)");
            text = r.stdout;
        }
        String help = Cli.run("help").assertOk().stdout;
        Set<String> helpVerbs = verbs(between(help, "usage:", "flags:"));
        Set<String> manVerbs = verbs(between(text, "SYNOPSIS", "DESCRIPTION"));
        if (!helpVerbs.equals(manVerbs)) {
            throw new AssertionError("verbs: help " + helpVerbs + ", man page " + manVerbs);
        }
        Set<Integer> helpCodes = exitCodes(between(help, "exit codes:", "examples:"));
        Set<Integer> manCodes = exitCodes(between(text, "EXIT STATUS", "EXAMPLES"));
        if (!helpCodes.equals(manCodes) || helpCodes.size() != 13) {
            throw new AssertionError("exit codes: help " + helpCodes + ", man page " + manCodes);
        }
        System.out.println("help and heapsampler(1) agree: verbs " + helpVerbs + ", exit codes " + helpCodes);
    }

    /** The text from the line holding start to the next line holding end. */
    static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        int to = from < 0 ? -1 : text.indexOf(end, from);
        if (to < 0) throw new AssertionError("no \"" + start + "\" ... \"" + end + "\" in:\n" + text);
        return text.substring(from, to);
    }

    /** The words after "heapsampler " at the start of a line (usage lines, the synopsis). */
    static Set<String> verbs(String text) {
        Set<String> verbs = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*heapsampler ([a-z-]+)( \\| (--[a-z]+))?").matcher(text);
        while (m.find()) {
            verbs.add(m.group(1));
            if (m.group(3) != null) verbs.add(m.group(3));
        }
        return verbs;
    }

    /** The numbers that start an entry (a line or a column) in an exit-code list. */
    static Set<Integer> exitCodes(String section) {
        Set<Integer> codes = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)(?:^|\\s)(\\d{1,2})\\s+[a-z]").matcher(section);
        while (m.find()) codes.add(Integer.parseInt(m.group(1)));
        return codes;
    }
}
