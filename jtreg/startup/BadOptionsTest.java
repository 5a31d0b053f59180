/*
 * @test
 * @summary A bad option string stops the JVM at startup with exactly one message,
 *          "heapsampler: bad option 'ITEM': ...", naming the item as typed; a string using
 *          every option with a non-default value is accepted
 * @library /lib
 * @build ExitWith
 * @run driver BadOptionsTest
 */
import heapsampler.AgentRunner;

import java.util.List;

public class BadOptionsTest {
    /** An option string and the item the agent must quote in its message. */
    record Case(String options, String badItem) {
    }

    static final List<Case> CASES = List.of(
            new Case("interval=12q", "interval=12q"),
            new Case("bogus=1", "bogus=1"),
            new Case("interval=-1", "interval=-1"),
            new Case("interval=", "interval="),
            new Case("interval=1k,interval=2k", "interval=2k"),   // given twice
            new Case(",", ""),                                    // empty key
            new Case("interval=1k,", ""),                         // trailing comma
            new Case("depth=0", "depth=0"),
            new Case("depth=2049", "depth=2049"),
            new Case("format=json", "format=json"),
            new Case("log=loud", "log=loud"),
            new Case("live=maybe", "live=maybe"),
            new Case("track=0", "track=0"),
            new Case("heap_source=magic", "heap_source=magic"),
            new Case("live_scale=linear", "live_scale=linear"),
            new Case("memory=1m", "memory=1m"),
            new Case("memory=64m,track=16777216", "track=16777216"), // needs memory=1g
            new Case("interval", "interval"),                     // value missing
            new Case("help=yes", "help=yes"),                     // a flag takes no value
            new Case("file=out-%q.pb.gz", "file=out-%q.pb.gz"),   // unknown escape
            new Case("interval=4k,log=info,bogus", "bogus"),      // bad item after good ones
            new Case("reply=/tmp/hs-reply", "reply=/tmp/hs-reply"), // only on attach
            new Case("collapsed=bytes", "collapsed=bytes"),
            // an in-use metric without live tracking, whatever the order
            new Case("collapsed=inuse_space,live=false", "collapsed=inuse_space"));

    public static void main(String[] args) throws Exception {
        goodOptionsAreAccepted();
        for (Case c : CASES) badOptionIsRejected(c);
    }

    /** The control: every option with a valid, non-default value. */
    static void goodOptionsAreAccepted() throws Exception {
        String options = "interval=1k,file=ok-%p-%t-%%.txt,log=error,depth=8,format=collapsed,"
                + "live=false,track=1k,heap_source=none,live_scale=proportional,"
                + "collapsed=alloc_objects,memory=32m";
        AgentRunner.Result r = AgentRunner.withAgent(options).label("good-options")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCode(0).assertStdoutContains(ExitWith.MARKER);
        r.assertAgentLineCount(0);
    }

    static void badOptionIsRejected(Case c) throws Exception {
        AgentRunner.Result r = AgentRunner.withAgent(c.options()).label("bad-options")
                .run("ExitWith", "0");
        r.assertNoCrash().assertExitCodeNonZero().assertStdoutLacks(ExitWith.MARKER);
        r.assertAgentLineCount(1);
        String line = r.agentLines().get(0);
        String expected = AgentRunner.AGENT_PREFIX + "bad option '" + c.badItem() + "'";
        if (!line.startsWith(expected)) {
            r.fail("options \"" + c.options() + "\": expected a line starting with \"" + expected
                    + "\", got \"" + line + "\"");
        }
    }
}
