/*
 * PushFill: a workload whose pushed profiles are large, to fill the push queue: every
 * allocation happens at the end of a chain of DEPTH calls through 32 methods picked at
 * random (m0..m31, each through next()), so nearly every sample has a stack of its own and the
 * profiles compress poorly. Runs SECONDS seconds (first argument, default 90), pausing a
 * little between rounds. Use with a high rate= (e.g. rate=5000/s) for more samples a window.
 */
import java.util.SplittableRandom;

public class PushFill {
    static final int DEPTH = 12;
    static final Object[] kept = new Object[256]; /* stored, so the JIT cannot drop them */
    static long count;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 90;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        SplittableRandom random = new SplittableRandom(42);
        while (System.nanoTime() < end) {
            for (int i = 0; i < 2000; i++) next(random.nextLong(), DEPTH);
            Thread.sleep(1);
        }
        System.out.println("PUSHFILL DONE " + count);
    }

    static void next(long p, int d) {
        if (d == 0) {
            kept[(int) (count++ & 255)] = new byte[1024 + (int) (p & 7) * 512];
            return;
        }
        switch ((int) (p & 31)) {
            case 0: m0(p >>> 5, d - 1); break;
            case 1: m1(p >>> 5, d - 1); break;
            case 2: m2(p >>> 5, d - 1); break;
            case 3: m3(p >>> 5, d - 1); break;
            case 4: m4(p >>> 5, d - 1); break;
            case 5: m5(p >>> 5, d - 1); break;
            case 6: m6(p >>> 5, d - 1); break;
            case 7: m7(p >>> 5, d - 1); break;
            case 8: m8(p >>> 5, d - 1); break;
            case 9: m9(p >>> 5, d - 1); break;
            case 10: m10(p >>> 5, d - 1); break;
            case 11: m11(p >>> 5, d - 1); break;
            case 12: m12(p >>> 5, d - 1); break;
            case 13: m13(p >>> 5, d - 1); break;
            case 14: m14(p >>> 5, d - 1); break;
            case 15: m15(p >>> 5, d - 1); break;
            case 16: m16(p >>> 5, d - 1); break;
            case 17: m17(p >>> 5, d - 1); break;
            case 18: m18(p >>> 5, d - 1); break;
            case 19: m19(p >>> 5, d - 1); break;
            case 20: m20(p >>> 5, d - 1); break;
            case 21: m21(p >>> 5, d - 1); break;
            case 22: m22(p >>> 5, d - 1); break;
            case 23: m23(p >>> 5, d - 1); break;
            case 24: m24(p >>> 5, d - 1); break;
            case 25: m25(p >>> 5, d - 1); break;
            case 26: m26(p >>> 5, d - 1); break;
            case 27: m27(p >>> 5, d - 1); break;
            case 28: m28(p >>> 5, d - 1); break;
            case 29: m29(p >>> 5, d - 1); break;
            case 30: m30(p >>> 5, d - 1); break;
            case 31: m31(p >>> 5, d - 1); break;
            default: break;
        }
    }

    static void m0(long p, int d) { next(p, d); }
    static void m1(long p, int d) { next(p, d); }
    static void m2(long p, int d) { next(p, d); }
    static void m3(long p, int d) { next(p, d); }
    static void m4(long p, int d) { next(p, d); }
    static void m5(long p, int d) { next(p, d); }
    static void m6(long p, int d) { next(p, d); }
    static void m7(long p, int d) { next(p, d); }
    static void m8(long p, int d) { next(p, d); }
    static void m9(long p, int d) { next(p, d); }
    static void m10(long p, int d) { next(p, d); }
    static void m11(long p, int d) { next(p, d); }
    static void m12(long p, int d) { next(p, d); }
    static void m13(long p, int d) { next(p, d); }
    static void m14(long p, int d) { next(p, d); }
    static void m15(long p, int d) { next(p, d); }
    static void m16(long p, int d) { next(p, d); }
    static void m17(long p, int d) { next(p, d); }
    static void m18(long p, int d) { next(p, d); }
    static void m19(long p, int d) { next(p, d); }
    static void m20(long p, int d) { next(p, d); }
    static void m21(long p, int d) { next(p, d); }
    static void m22(long p, int d) { next(p, d); }
    static void m23(long p, int d) { next(p, d); }
    static void m24(long p, int d) { next(p, d); }
    static void m25(long p, int d) { next(p, d); }
    static void m26(long p, int d) { next(p, d); }
    static void m27(long p, int d) { next(p, d); }
    static void m28(long p, int d) { next(p, d); }
    static void m29(long p, int d) { next(p, d); }
    static void m30(long p, int d) { next(p, d); }
    static void m31(long p, int d) { next(p, d); }
}
