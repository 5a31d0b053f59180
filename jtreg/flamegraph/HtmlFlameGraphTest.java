/*
 * @test
 * @summary format=html writes one self-contained HTML flame graph (default name
 *          heapsampler-<pid>.html) that headless Chromium renders from the local file:
 *          the workload's sites are drawn as frames; the URL fragment's metric switches
 *          between allocated and live bytes (the garbage-only site is drawn for the first
 *          and not for the second); a search highlights exactly the matching frames;
 *          colour=age shades the live frames by mean age (the site kept 2 s longer is
 *          darker, and hovering it shows its age), only for a live metric; a screenshot
 *          is not blank. Skipped only when chromium is absent.
 * @library /lib
 * @build FlameWorkload
 * @run driver HtmlFlameGraphTest
 */
import heapsampler.AgentRunner;
import heapsampler.Chromium;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

public class HtmlFlameGraphTest {
    static final String KEEP_NODES = "FlameWorkload.keepNodes";
    static final String KEEP_CAFE = "FlameWorkload.keepCaf\u00e9";
    static final String DROP = "FlameWorkload.dropGarbage";
    /** A frame the page drew: <div class="f ..." ...>name</div>. */
    static final Pattern FRAME = Pattern.compile("<div class=\"(f(?: [a-z]+)*)\"([^>]*)>([^<]*)</div>");
    static final Pattern BACKGROUND = Pattern.compile("background(?:-color)?: (rgb\\([0-9, ]+\\))");
    static final Pattern TIP = Pattern.compile("<div id=\"tip\"[^>]*>(.*?)</div>\\s*<details", Pattern.DOTALL);
    static final Pattern MEAN_AGE = Pattern.compile("mean age (\\d+) s\\b");
    /** Hovers the keepNodes frame once the page has drawn (appended to a copy of the page). */
    static final String HOVER = "<script>(function () {\n"
            + "  var fs = document.querySelectorAll('#graph .f');\n"
            + "  for (var k = 0; k < fs.length; k++) {\n"
            + "    if (fs[k].textContent !== '" + KEEP_NODES + "') continue;\n"
            + "    var r = fs[k].getBoundingClientRect();\n"
            + "    fs[k].dispatchEvent(new MouseEvent('mousemove',\n"
            + "        {bubbles: true, clientX: r.left + 2, clientY: r.top + 2}));\n"
            + "    break;\n"
            + "  }\n"
            + "})();</script>\n";

    record Frame(String cls, String name, String background) {
        boolean hit() {
            return cls.contains("hit");
        }
    }

    public static void main(String[] args) throws Exception {
        Path chromium = Chromium.require();
        // rate=0: the sites' values are checked with the JVM sampler's tolerance alone
        AgentRunner.Result r = AgentRunner.withAgent("interval=64k,rate=0,format=html")
                .jvmFlags("-Xmx256m").label("html").run("FlameWorkload", "aged");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains("FlameWorkload: done");
        Path page = r.file("heapsampler-" + pidOf(r) + ".html");
        check(Files.isRegularFile(page), "no " + page.getFileName() + " (format=html's default name)");
        String html = Files.readString(page, StandardCharsets.UTF_8);
        System.out.println(page.getFileName() + ": " + html.length() + " bytes");
        check(html.startsWith("<!DOCTYPE html>"), "not an HTML page");
        check(!html.contains("http://") && !html.contains("https://"), "the page refers to the network");

        List<Frame> alloc = frames(Chromium.dumpDom(chromium, page, "metric=alloc_space"), "alloc_space");
        for (String site : List.of(KEEP_NODES, KEEP_CAFE, DROP, "byte[]", "FlameWorkload$Node")) {
            check(names(alloc).contains(site), "alloc_space: no frame named " + site + " in " + names(alloc));
        }
        List<Frame> inuse = frames(Chromium.dumpDom(chromium, page, "metric=inuse_space"), "inuse_space");
        check(names(inuse).contains(KEEP_NODES) && names(inuse).contains(KEEP_CAFE),
                "inuse_space: the kept sites are not drawn: " + names(inuse));
        check(!names(inuse).contains(DROP), "inuse_space: the garbage-only site is drawn");

        String searched = Chromium.dumpDom(chromium, page, "metric=alloc_space&search=keep&colour=age");
        check(searched.contains("data-colour=\"name\""), "colour=age applies to alloc_space");
        List<Frame> search = frames(searched, "alloc_space");
        Set<String> hits = new HashSet<>();
        for (Frame f : search) {
            if (f.hit()) hits.add(f.name());
        }
        check(hits.equals(Set.of(KEEP_NODES, KEEP_CAFE)), "search=keep highlighted " + hits);

        checkAgeColours(chromium, page, html, alloc, inuse);

        checkNotBlank(Chromium.screenshot(chromium, page, "metric=alloc_space"));
    }

    /** By default (and for alloc_space even with colour=age) frames have their name's colour;
     *  with colour=age on inuse_space the older kept site is shaded darker than the younger,
     *  and hovering it shows its mean age, at least the workload's 2 s wait. */
    static void checkAgeColours(Path chromium, Path page, String html, List<Frame> alloc,
            List<Frame> inuse) throws Exception {
        String nodesByName = background(alloc, KEEP_NODES), cafeByName = background(alloc, KEEP_CAFE);
        check(background(inuse, KEEP_NODES).equals(nodesByName)
                && background(inuse, KEEP_CAFE).equals(cafeByName),
                "inuse_space without colour=age: not the name colours " + nodesByName + ", " + cafeByName);

        Path hovered = page.resolveSibling("hovered.html");
        Files.writeString(hovered, html.replace("</body>", HOVER + "</body>"), StandardCharsets.UTF_8);
        String dom = Chromium.dumpDom(chromium, hovered, "metric=inuse_space&colour=age");
        check(dom.contains("data-colour=\"age\""), "colour=age on inuse_space: not colouring by age");
        List<Frame> aged = frames(dom, "inuse_space");
        String nodes = background(aged, KEEP_NODES), cafe = background(aged, KEEP_CAFE);
        System.out.println("by age: " + KEEP_NODES + " " + nodes + ", " + KEEP_CAFE + " " + cafe
                + "; by name: " + nodesByName + ", " + cafeByName);
        check(!nodes.equals(nodesByName), "colour=age: " + KEEP_NODES + " keeps its name colour");
        check(lightness(nodes) + 0.05 < lightness(cafe),
                "colour=age: the older " + KEEP_NODES + " (" + nodes + ") is not darker than "
                        + KEEP_CAFE + " (" + cafe + ")");

        Matcher tip = TIP.matcher(dom);
        check(tip.find(), "no tooltip in the hovered page");
        String text = tip.group(1).replaceAll("<[^>]*>", " ");
        System.out.println("tooltip: " + text);
        check(text.contains(KEEP_NODES), "the tooltip is not about " + KEEP_NODES + ": " + text);
        Matcher age = MEAN_AGE.matcher(text);
        check(age.find() && Long.parseLong(age.group(1)) >= 2,
                "the tooltip shows no mean age of at least 2 s: " + text);
    }

    /** The background colour of the frame named name. */
    static String background(List<Frame> frames, String name) {
        for (Frame f : frames) {
            if (f.name().equals(name)) return f.background();
        }
        throw new AssertionError("no frame named " + name);
    }

    /** HSL lightness (0 to 1) of "rgb(r, g, b)". */
    static double lightness(String rgb) {
        int[] c = java.util.Arrays.stream(rgb.replaceAll("[^0-9,]", "").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int max = Math.max(c[0], Math.max(c[1], c[2])), min = Math.min(c[0], Math.min(c[1], c[2]));
        return (max + min) / 510.0;
    }

    static long pidOf(AgentRunner.Result r) {
        Matcher m = Pattern.compile("profile to heapsampler-(\\d+)\\.html").matcher(
                String.join("\n", r.agentLines()) + r.stderr);
        if (m.find()) return Long.parseLong(m.group(1));
        try (var files = Files.list(r.dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("heapsampler-\\d+\\.html"))
                    .map(n -> Long.parseLong(n.replaceAll("\\D", ""))).findFirst()
                    .orElseThrow(() -> new AssertionError("no heapsampler-<pid>.html in " + r.dir));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The frames drawn in a dumped DOM; checks the page shows the metric asked for. */
    static List<Frame> frames(String dom, String metric) {
        check(dom.contains("data-metric=\"" + metric + "\""), "the page does not show " + metric
                + ":\n" + dom.substring(0, Math.min(dom.length(), 3000)));
        List<Frame> frames = new ArrayList<>();
        Matcher m = FRAME.matcher(dom);
        while (m.find()) {
            Matcher bg = BACKGROUND.matcher(m.group(2));
            frames.add(new Frame(m.group(1), unescape(m.group(3)), bg.find() ? bg.group(1) : ""));
        }
        System.out.println(metric + ": " + frames.size() + " frames drawn");
        check(frames.size() > 5, metric + ": no frames drawn");
        return frames;
    }

    static Set<String> names(List<Frame> frames) {
        Set<String> names = new HashSet<>();
        for (Frame f : frames) names.add(f.name());
        return names;
    }

    static String unescape(String text) {
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&nbsp;", "\u00a0").replace("&amp;", "&");
    }

    /** Most of a drawn flame graph is coloured boxes: many colours, much non-white. */
    static void checkNotBlank(Path png) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        check(image != null, "cannot read " + png);
        Set<Integer> colours = new HashSet<>();
        long coloured = 0, pixels = (long) image.getWidth() * image.getHeight();
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                int r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 40) coloured++;
            }
        }
        System.out.println(png + ": " + colours.size() + " colours, " + coloured + " of "
                + pixels + " pixels coloured");
        check(colours.size() >= 20 && coloured > pixels / 50, "the screenshot looks blank: " + png);
    }

    static void check(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }
}
