/*
 * RateWorkload: allocates a given number of kilobytes as 24-byte objects (byte[8]) at one
 * site, RateWorkload.allocate, for SampleRateTest and FirstSamplesTest.
 *
 * An optional warm-up first allocates elsewhere (RateWorkload.warmUp). Then, like the
 * JDK's own JEP 331 tests, it calls System.gc(), which retires the thread's TLAB, so the
 * measured part starts with a fresh TLAB. The bytes the thread allocated in allocate()
 * are measured with getCurrentThreadAllocatedBytes.
 *
 * Arguments: kilobytes to allocate at the site, kilobytes of warm-up (0: none).
 * Output: "allocated BYTES".
 */
import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

public class RateWorkload {
    static final int OBJECT_SIZE = 24; // byte[8]: a 16-byte array header and 8 bytes

    static volatile Object sink;

    public static void main(String[] args) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = Long.parseLong(args[0]) * 1024;
        long warmUpBytes = Long.parseLong(args[1]) * 1024;
        warmUp(warmUpBytes / 64);
        System.gc();
        long before = threads.getCurrentThreadAllocatedBytes();
        allocate((int) (bytes / OBJECT_SIZE));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        System.out.println("allocated " + allocated);
    }

    static void warmUp(long count) {
        for (long i = 0; i < count; i++) sink = new byte[48];
    }

    static void allocate(int count) {
        for (int i = 0; i < count; i++) sink = new byte[8];
    }
}
