/*
 * @test
 * @summary top --every 1s under a pseudo-terminal (script) of 100 columns, stopped by SIGINT
 *          after 7.5 s: at least 5 reports, each led by the workload's retaining site,
 *          the screen cleared between them, no line wider than the terminal, a clean exit
 *          (0 or 128+SIGINT). Without a terminal, top prints no escape sequence
 * @library /lib
 * @build CliTarget
 * @run driver CliTopEveryTest
 */
import heapsampler.Cli;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Set;

public class CliTopEveryTest {
    static final int COLUMNS = 100;

    public static void main(String[] args) throws Exception {
        Path script = Cli.requireTool("script");
        Path timeout = Cli.requireTool("timeout");
        Path stty = Cli.requireTool("stty");
        Set<Path> before = Cli.leftovers(List.of(Paths.get("/tmp")));
        try (Cli.Target t = Cli.Target.withAgent("interval=16k").jvmFlags("-Xmx128m")) {
            t.start("CliTarget");
            Cli.Result plain = Cli.run("top", t.pidString()).assertOk();
            if (plain.stdout.contains("\u001b")) plain.fail("escape sequences without a terminal");

            String inner = stty + " cols " + COLUMNS + " rows 40 && TERM=xterm exec " + timeout
                    + " --preserve-status -s INT 7.5 " + Cli.executable() + " top " + t.pidString() + " --every 1s";
            Cli.Result r = Cli.runCommand(List.of(script.toString(), "-q", "-e", "-c", inner, "/dev/null"),
                    Duration.ofSeconds(60));
            if (r.exitCode != 0 && r.exitCode != 130) r.fail("top --every did not end cleanly on SIGINT");
            String screen = r.stdout;
            int clears = count(screen, "\u001b[2J") + count(screen, "\u001b[H\u001b[J") + count(screen, "\u001b[H\u001b[0J");
            String text = screen.replaceAll("\u001b\\[[0-9;?]*[A-Za-z]", "").replace("\r", "");
            long reports = text.lines().filter(l -> l.matches("\\s*1\\s.*CliTarget\\.retain.*")).count();
            System.out.println("top --every 1s: " + reports + " reports, " + clears + " screen clears");
            if (reports < 5 || reports > 10) r.fail("expected 5 to 10 reports in 7.5 s, saw " + reports);
            if (clears < reports - 1) r.fail("the screen is not cleared between reports: " + clears + " clears");
            text.lines().filter(l -> l.length() > COLUMNS).findFirst()
                    .ifPresent(l -> r.fail("a line wider than the terminal's " + COLUMNS + " columns: " + l));
            t.assertUndisturbed(CliTarget.EXIT_CODE);
            Cli.assertNoLeftovers(before, List.of(Paths.get("/tmp"), t.dir()), t.pid());
        }
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) n++;
        return n;
    }
}
