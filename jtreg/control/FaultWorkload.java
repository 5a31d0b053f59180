/*
 * FaultWorkload: a daemon thread allocates without end while main waits a moment and then
 * exits with EXIT_CODE, so the agent's exit runs while the allocating thread may be inside
 * a sampling callback (FaultsTest makes it stay there).
 */
public class FaultWorkload {
    static final int EXIT_CODE = 7;
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        Thread allocator = new Thread(() -> {
            while (true) sink = new byte[4096];
        }, "allocator");
        allocator.setDaemon(true);
        allocator.start();
        for (int i = 0; i < 3; i++) { // a few GCs, so the sweeper has work
            Thread.sleep(300);
            System.gc();
        }
        System.exit(EXIT_CODE);
    }
}
