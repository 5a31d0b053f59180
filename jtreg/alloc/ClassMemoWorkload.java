/* ClassMemoWorkload: 40 classes, each allocated at its own site (method aN allocates CN),
 * from THREADS threads (default 2), in a heap small enough for a collection every few
 * milliseconds: the classes' mirrors move and the memo of class ids by address
 * (class_memo.h) is refilled hundreds of times. Usage: ClassMemoWorkload CLASSES ROUNDS
 * [THREADS] (CLASSES from 1 to 40: the first ones are used; ROUNDS in all, split among the
 * threads). One object in 64 is kept in a ring, so some survive a few collections and get
 * promoted. */
public final class ClassMemoWorkload {
    static final class C0 { long v = 0; }
    static final class C1 { long v = 1; }
    static final class C2 { long v = 2; }
    static final class C3 { long v = 3; }
    static final class C4 { long v = 4; }
    static final class C5 { long v = 5; }
    static final class C6 { long v = 6; }
    static final class C7 { long v = 7; }
    static final class C8 { long v = 8; }
    static final class C9 { long v = 9; }
    static final class C10 { long v = 10; }
    static final class C11 { long v = 11; }
    static final class C12 { long v = 12; }
    static final class C13 { long v = 13; }
    static final class C14 { long v = 14; }
    static final class C15 { long v = 15; }
    static final class C16 { long v = 16; }
    static final class C17 { long v = 17; }
    static final class C18 { long v = 18; }
    static final class C19 { long v = 19; }
    static final class C20 { long v = 20; }
    static final class C21 { long v = 21; }
    static final class C22 { long v = 22; }
    static final class C23 { long v = 23; }
    static final class C24 { long v = 24; }
    static final class C25 { long v = 25; }
    static final class C26 { long v = 26; }
    static final class C27 { long v = 27; }
    static final class C28 { long v = 28; }
    static final class C29 { long v = 29; }
    static final class C30 { long v = 30; }
    static final class C31 { long v = 31; }
    static final class C32 { long v = 32; }
    static final class C33 { long v = 33; }
    static final class C34 { long v = 34; }
    static final class C35 { long v = 35; }
    static final class C36 { long v = 36; }
    static final class C37 { long v = 37; }
    static final class C38 { long v = 38; }
    static final class C39 { long v = 39; }

    static Object a0() { return new C0(); }
    static Object a1() { return new C1(); }
    static Object a2() { return new C2(); }
    static Object a3() { return new C3(); }
    static Object a4() { return new C4(); }
    static Object a5() { return new C5(); }
    static Object a6() { return new C6(); }
    static Object a7() { return new C7(); }
    static Object a8() { return new C8(); }
    static Object a9() { return new C9(); }
    static Object a10() { return new C10(); }
    static Object a11() { return new C11(); }
    static Object a12() { return new C12(); }
    static Object a13() { return new C13(); }
    static Object a14() { return new C14(); }
    static Object a15() { return new C15(); }
    static Object a16() { return new C16(); }
    static Object a17() { return new C17(); }
    static Object a18() { return new C18(); }
    static Object a19() { return new C19(); }
    static Object a20() { return new C20(); }
    static Object a21() { return new C21(); }
    static Object a22() { return new C22(); }
    static Object a23() { return new C23(); }
    static Object a24() { return new C24(); }
    static Object a25() { return new C25(); }
    static Object a26() { return new C26(); }
    static Object a27() { return new C27(); }
    static Object a28() { return new C28(); }
    static Object a29() { return new C29(); }
    static Object a30() { return new C30(); }
    static Object a31() { return new C31(); }
    static Object a32() { return new C32(); }
    static Object a33() { return new C33(); }
    static Object a34() { return new C34(); }
    static Object a35() { return new C35(); }
    static Object a36() { return new C36(); }
    static Object a37() { return new C37(); }
    static Object a38() { return new C38(); }
    static Object a39() { return new C39(); }

    static Object allocate(int which) {
        switch (which) {
            case 0: return a0();
            case 1: return a1();
            case 2: return a2();
            case 3: return a3();
            case 4: return a4();
            case 5: return a5();
            case 6: return a6();
            case 7: return a7();
            case 8: return a8();
            case 9: return a9();
            case 10: return a10();
            case 11: return a11();
            case 12: return a12();
            case 13: return a13();
            case 14: return a14();
            case 15: return a15();
            case 16: return a16();
            case 17: return a17();
            case 18: return a18();
            case 19: return a19();
            case 20: return a20();
            case 21: return a21();
            case 22: return a22();
            case 23: return a23();
            case 24: return a24();
            case 25: return a25();
            case 26: return a26();
            case 27: return a27();
            case 28: return a28();
            case 29: return a29();
            case 30: return a30();
            case 31: return a31();
            case 32: return a32();
            case 33: return a33();
            case 34: return a34();
            case 35: return a35();
            case 36: return a36();
            case 37: return a37();
            case 38: return a38();
            case 39: return a39();
            default: throw new IllegalArgumentException("class " + which);
        }
    }

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int classes = Integer.parseInt(args[0]);
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        long rounds = Long.parseLong(args[1]) * 2 / count;
        Thread[] threads = new Thread[count];
        for (int t = 0; t < threads.length; t++) {
            final int seed = t;
            threads[t] = new Thread(() -> {
                Object[] ring = new Object[4096];
                for (long i = 0; i < rounds; i++) {
                    Object o = allocate((int) ((i * 7 + seed) % classes));
                    if ((i & 63) == 0) ring[(int) ((i >>> 6) & 4095)] = o;
                    else sink = o;
                }
            }, "memo-" + t);
            threads[t].start();
        }
        for (Thread t : threads) t.join();
        System.out.println("ClassMemoWorkload: done");
    }
}
