/*
 * PlantedTempWorkload: takes the temporary names an earlier agent would have used for its
 * profiles (TARGET.tmp.<pid>.0 .. .63, predictable, as a neighbour in a shared directory
 * could), for heap.pb.gz, heap-oom.pb.gz and their -peak siblings, then leaks byte[10_000]
 * until the heap is exhausted and dies of the uncaught OutOfMemoryError.
 */
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public class PlantedTempWorkload {
    static final int PLANTED = 64;
    static final String[] TARGETS = {"heap.pb.gz", "heap-oom.pb.gz", "heap-peak.pb.gz", "heap-oom-peak.pb.gz"};
    static final List<byte[]> KEPT = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        long pid = ProcessHandle.current().pid();
        for (String target : TARGETS)
            for (int n = 0; n < PLANTED; n++)
                Files.writeString(Path.of(target + ".tmp." + pid + "." + n), "taken");
        System.out.println("planted " + PLANTED * TARGETS.length + " names");
        while (true) leak();
    }

    static void leak() {
        KEPT.add(new byte[10_000]);
    }
}
