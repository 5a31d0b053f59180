/* HumongousChurn: a workload for bench/gc_impact.sh that retains large arrays.
 *
 * Each step allocates one byte[600_000] (a G1 humongous object when regions are 1 MiB) and
 * a burst of small objects. One large array in four is kept in a rotating window of 48
 * slots, so about 48 humongous regions are live at any time and each kept array dies some
 * 190 steps later; one small object in 32 is kept in a ring of 64k slots. A heap profiler
 * that tracks sampled objects with weak references sees most of the large arrays (at a 512k
 * interval, a 600 KB array is sampled with probability ~2/3): this is the workload where
 * such tracking could delay reclaiming them or lengthen the pauses.
 *
 * Usage: java -Xmx512m -XX:G1HeapRegionSize=1m HumongousChurn [steps, default 16000]
 * Single-threaded and with a fixed seed, so runs do the same work. */
public final class HumongousChurn {
    private static final int LARGE_BYTES = 600_000;
    private static final int WINDOW = 48;
    private static final int SMALL_PER_STEP = 400;
    private static final int RING = 1 << 16;

    private static final class Cell {
        final int value;
        final Cell next;

        Cell(int value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 16_000;
        byte[][] window = new byte[WINDOW][];
        Object[] ring = new Object[RING];
        int ringCursor = 0;
        long checksum = 0;
        int seed = 12345;
        for (int step = 0; step < steps; step++) {
            byte[] large = new byte[LARGE_BYTES];
            large[step % LARGE_BYTES] = (byte) step;
            if ((step & 3) == 0) window[(step >> 2) % WINDOW] = large;
            Cell chain = null;
            for (int i = 0; i < SMALL_PER_STEP; i++) {
                seed = seed * 1103515245 + 12345;
                Object small;
                switch ((seed >>> 28) & 3) {
                case 0: small = chain = new Cell(i, (i & 15) == 0 ? null : chain); break;
                case 1: small = new int[4 + (seed >>> 24 & 15)]; break;
                case 2: small = Integer.toString(seed); break;
                default: small = new Object[6]; break;
                }
                if ((i & 31) == 0) {
                    ring[ringCursor] = small;
                    ringCursor = (ringCursor + 1) & (RING - 1);
                }
            }
            checksum += large[(step * 7) % LARGE_BYTES] + (chain == null ? 0 : chain.value);
        }
        for (byte[] kept : window) if (kept != null) checksum += kept.length;
        System.out.println("HumongousChurn checksum " + checksum);
    }
}
