/*
 * ClassFlood: defines and unloads many classes, allocating arrays of each from one site.
 *
 * Usage: ClassFlood <batches> <classes-per-batch> <arrays-per-class> [unique]
 * ("unique": every class gets a name of its own, B<batch>_Gen<k>, as proxies do)
 *
 * Each batch is a fresh class loader defining classes Gen0..Gen<n-1> (minimal class files
 * built here: no methods, extending Object), the way a script engine or a redeployed
 * application regenerates its classes; from one site it allocates arrays of each class
 * (Array.newInstance, so the sampled object's class is GenK[], which unloads with its
 * loader). The loaders are dropped at once, and a System.gc() every few batches unloads
 * them. Prints the number of classes defined and of arrays allocated ("gen-arrays"), the CPU
 * time, and the process RSS at the
 * middle and the end ("rss-mid-kb", "rss-end-kb") so the test can see memory stay flat.
 */
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Paths;

public class ClassFlood {
    static volatile Object sink;

    static final class Loader extends ClassLoader {
        Loader() {
            super(null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /** The smallest valid class file: `public class NAME extends Object {}`, version 52. */
    static byte[] classFile(String name) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(0xCAFEBABE);
        out.writeShort(0);
        out.writeShort(52);
        out.writeShort(5);           // constant pool count: entries 1..4
        out.writeByte(1);            // #1 Utf8 NAME
        out.writeUTF(name);
        out.writeByte(7);            // #2 Class #1
        out.writeShort(1);
        out.writeByte(1);            // #3 Utf8 java/lang/Object
        out.writeUTF("java/lang/Object");
        out.writeByte(7);            // #4 Class #3
        out.writeShort(3);
        out.writeShort(0x0021);      // public super
        out.writeShort(2);           // this
        out.writeShort(4);           // super
        out.writeShort(0);           // interfaces
        out.writeShort(0);           // fields
        out.writeShort(0);           // methods
        out.writeShort(0);           // attributes
        return bytes.toByteArray();
    }

    static long rssKb() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    static void allocate(Class<?> c, int arrays) {
        for (int i = 0; i < arrays; i++) sink = Array.newInstance(c, 16); // the one site
    }

    public static void main(String[] args) throws Exception {
        int batches = Integer.parseInt(args[0]);
        int perBatch = Integer.parseInt(args[1]);
        int arrays = Integer.parseInt(args[2]);
        boolean unique = args.length > 3 && args[3].equals("unique");
        byte[][] files = new byte[perBatch][];
        for (int k = 0; k < perBatch; k++) files[k] = classFile("Gen" + k);
        long defined = 0;
        for (int b = 0; b < batches; b++) {
            Loader loader = new Loader();
            for (int k = 0; k < perBatch; k++) {
                String name = unique ? "B" + b + "_Gen" + k : "Gen" + k;
                byte[] file = unique ? classFile(name) : files[k];
                allocate(loader.define(name, file), arrays);
                defined++;
            }
            if (b % 10 == 9) System.gc();
            if (b == batches / 2) System.out.println("rss-mid-kb " + rssKb());
        }
        System.gc();
        System.out.println("rss-end-kb " + rssKb());
        long cpuNanos = ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        System.out.println("classes-defined " + defined);
        System.out.println("gen-arrays " + defined * arrays);
        System.out.println("cpu-ms " + cpuNanos / 1_000_000);
        System.out.println("ClassFlood: done");
    }
}
