/*
 * PushFill: a workload whose pushed profiles are large, to fill the push queue: it allocates
 * at the end of recursions of every depth from 1 to MAX_DEPTH, at one of LINES sites, so the
 * profile of a second holds about as many distinct deep stacks as samples. Runs SECONDS
 * seconds (first argument, default 90), pausing a little between rounds so that it takes
 * about half a core.
 */
public class PushFill {
    static final int MAX_DEPTH = 400;
    static long sink;
    static final Object[] kept = new Object[256]; /* stored, so the JIT cannot drop them */

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 90;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int round = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 200; i++, round++) descend(1 + round % MAX_DEPTH, round);
            Thread.sleep(2);
        }
        System.out.println("PUSHFILL DONE " + sink);
    }

    static void keep(Object o) {
        kept[(int) (sink++ & 255)] = o;
    }

    static void descend(int depth, int round) {
        if (depth > 0) {
            descend(depth - 1, round);
            return;
        }
        switch (round & 7) {
            case 0: keep(new byte[4096]); break;
            case 1: keep(new byte[8192]); break;
            case 2: keep(new long[1024]); break;
            case 3: keep(new int[2048]); break;
            case 4: keep(new char[4096]); break;
            case 5: keep(new Object[1024]); break;
            case 6: keep(new short[4096]); break;
            default: keep(new double[1024]); break;
        }
    }
}
