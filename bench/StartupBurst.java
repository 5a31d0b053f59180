import java.util.ArrayList;
import java.util.List;

/**
 * StartupBurst: the rate cap's precision for a set built at startup. Builds a 20 MB set
 * (2,000 byte[10000] in StartupBurst.retain, as jtreg's CliTarget does) in a few ms, then
 * 20,000 byte[512] of garbage, a GC, and exits: the exit profile's inuse_space of
 * StartupBurst.retain against the truth (2,000 x 10,016 bytes), over repeated runs, shows
 * the cap's error on a burst shorter than its 20 ms check (docs: "The cap's startup bursts").
 *
 *   java -agentpath:build/libheapsampler.so=interval=16k,file=o.pb.gz StartupBurst
 */
public class StartupBurst {
    static final List<byte[]> HELD = new ArrayList<>();
    static volatile Object sink;

    static void retain() { for (int i = 0; i < 2000; i++) HELD.add(new byte[10_000]); }

    public static void main(String[] args) throws Exception {
        retain();
        for (int i = 0; i < 20_000; i++) sink = new byte[512];
        System.gc();
        Thread.sleep(200);
    }
}
