/*
 * @test
 * @summary =help lists every option with its default and exits 0; the documented defaults
 *          are accepted when given explicitly, and are the ones the agent runs with
 * @library /lib
 * @build ExitWith
 * @run driver HelpTest
 */
import heapsampler.AgentRunner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class HelpTest {
    /** Every option the agent has; "help" is the only flag (no value, default off). */
    static final List<String> KEYS = List.of("interval", "file", "log", "help", "depth", "format",
            "live", "track", "heap_source", "live_scale", "collapsed", "memory", "rate");

    public static void main(String[] args) throws Exception {
        Map<String, String> defaults = helpDefaults();
        defaultsAreAccepted(defaults);
        defaultsAreInEffect(defaults);
    }

    /** Runs =help, checks it, and returns each option's documented default. */
    static Map<String, String> helpDefaults() throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("help").label("help").runJava("-version");
        r.assertNoCrash().assertExitCode(0);
        if (r.stderr.contains("bad option")) r.fail("help was rejected");

        // The help may go to stdout or stderr, with or without the log prefix.
        List<String> lines = new ArrayList<>();
        for (String line : (r.stdout + "\n" + r.stderr).split("\n")) {
            lines.add(line.startsWith(AgentRunner.AGENT_PREFIX)
                    ? line.substring(AgentRunner.AGENT_PREFIX.length()) : line);
        }
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String key : KEYS) {
            String value = defaultIn(lines, key);
            if (value == null) r.fail("the help does not give a default for option '" + key + "'");
            defaults.put(key, value);
        }
        System.out.println("documented defaults: " + defaults);
        if (!defaults.get("help").equals("off")) r.fail("help should default to off");
        return defaults;
    }

    /**
     * The option's block starts at the line whose first word is the key and ends where the
     * next option's block starts; its "default:" line holds the default.
     */
    static String defaultIn(List<String> lines, String key) {
        Pattern defaultLine = Pattern.compile("(?i)\\bdefault:\\s*(\\S+)");
        boolean inBlock = false;
        for (String line : lines) {
            String firstWord = line.trim().split("[\\s=:]", 2)[0];
            if (KEYS.contains(firstWord)) inBlock = firstWord.equals(key);
            if (!inBlock) continue;
            Matcher m = defaultLine.matcher(line);
            if (m.find()) return m.group(1);
        }
        return null;
    }

    /** key=default for every option: the JVM starts, runs the program, and nothing is said. */
    static void defaultsAreAccepted(Map<String, String> defaults) throws Exception {
        StringBuilder options = new StringBuilder();
        for (Map.Entry<String, String> e : defaults.entrySet()) {
            if (e.getKey().equals("help")) continue;
            if (options.length() > 0) options.append(',');
            options.append(e.getKey()).append('=').append(e.getValue());
        }
        AgentRunner.Result r = AgentRunner.withAgent(options.toString()).label("explicit-defaults")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(ExitWith.MARKER);
        r.assertAgentLineCount(0);
    }

    /** The "started" line at log=info shows the options in effect: the documented ones. */
    static void defaultsAreInEffect(Map<String, String> defaults) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent("log=info").label("started-line")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCode(0);
        String started = r.assertAgentLine("heapsampler: started");
        Map<String, String> shown = new LinkedHashMap<>();
        Matcher m = Pattern.compile("([a-z_]+)=([^\\s,;]*)").matcher(started);
        while (m.find()) shown.put(m.group(1), m.group(2));
        for (String key : KEYS) {
            if (key.equals("help") || key.equals("log")) continue; // log=info was given
            String value = shown.get(key);
            if (value == null) r.fail("the started line does not show '" + key + "'");
            if (!sameSetting(defaults.get(key), value)) {
                r.fail("option '" + key + "': the help says the default is '"
                        + defaults.get(key) + "' but the agent started with '" + value + "'");
            }
        }
        if (!"info".equals(shown.get("log"))) r.fail("the started line does not show log=info");
    }

    /** Sizes compare by value (512k == 524288); %p and %t in a pattern match their expansion. */
    static boolean sameSetting(String documented, String inEffect) {
        if (documented.equals(inEffect)) return true;
        Long a = size(documented), b = size(inEffect);
        if (a != null && b != null) return a.equals(b);
        if (documented.contains("%")) {
            String regex = Pattern.quote(documented).replace("%p", "\\E\\d+\\Q")
                    .replace("%t", "\\E\\d{8}-\\d{6}\\Q").replace("%%", "%");
            return inEffect.matches(regex);
        }
        return false;
    }

    static Long size(String text) {
        Matcher m = Pattern.compile("(\\d+)([kKmMgG]?)").matcher(text);
        if (!m.matches()) return null;
        long value = Long.parseLong(m.group(1));
        switch (m.group(2).toLowerCase()) {
            case "k": return value << 10;
            case "m": return value << 20;
            case "g": return value << 30;
            default: return value;
        }
    }
}
