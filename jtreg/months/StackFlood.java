/*
 * StackFlood: allocates a byte[1000] from 2^levels distinct call stacks, one each.
 *
 * Usage: StackFlood <levels> <rounds>
 *
 * walk(bits, level) goes down through left() or right() depending on one bit of `bits`
 * per level, so each value of bits is its own stack (2 frames per level). Every stack is
 * visited `rounds` times. Prints the bytes this thread allocated in the loop
 * ("allocated-bytes", from ThreadMXBean, the truth to compare alloc_space with) and the
 * process RSS at the end ("rss-end-kb").
 */
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;

public class StackFlood {
    static volatile Object sink;
    static final int SIZE = 1000;

    static void walk(int bits, int level) {
        if (level == 0) {
            sink = new byte[SIZE];
            return;
        }
        if ((bits & (1 << level)) != 0) left(bits, level - 1);
        else right(bits, level - 1);
    }

    static void left(int bits, int level) {
        walk(bits, level);
    }

    static void right(int bits, int level) {
        walk(bits, level);
    }

    public static void main(String[] args) throws Exception {
        int levels = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(self);
        for (int r = 0; r < rounds; r++) {
            for (int bits = 0; bits < (1 << levels); bits++) walk(bits << 1, levels);
        }
        long allocated = threads.getThreadAllocatedBytes(self) - before;
        System.out.println("allocated-bytes " + allocated);
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) System.out.println("rss-end-kb " + line.replaceAll("[^0-9]", ""));
        }
        System.out.println("StackFlood: done");
    }
}
