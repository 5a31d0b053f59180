/*
 * MixedWorkload: a short, varied allocation workload for tests that need a realistic
 * profile rather than exact numbers: strings, boxed numbers, hash maps, growing lists,
 * lambdas and streams (hidden classes in the stacks), nested arrays and a few large
 * arrays, on the main thread and two more threads; part of it stays reachable, so the
 * live profile is not empty. Deterministic (fixed seed).
 *
 * Argument: the number of rounds (each allocates a few MB). Prints DONE at the end.
 */
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

public class MixedWorkload {
    public static final String DONE = "MixedWorkload: done";

    /** What stays reachable until the end; written by several threads. */
    static final List<Object> retained = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Thread helperA = new Thread(() -> run(rounds, 1), "mixed-a");
        Thread helperB = new Thread(() -> run(rounds, 2), "mixed-b");
        helperA.start();
        helperB.start();
        run(rounds, 0);
        helperA.join();
        helperB.join();
        synchronized (retained) {
            System.out.println(DONE + ", " + retained.size() + " objects retained");
        }
    }

    static void run(int rounds, long seed) {
        Random random = new Random(seed);
        for (int round = 0; round < rounds; round++) {
            Map<String, Integer> words = countWords(random, 20_000);
            List<int[]> rows = matrix(200, 1 + random.nextInt(64));
            String joined = IntStream.range(0, 2_000).mapToObj(Integer::toHexString)
                    .collect(Collectors.joining(","));
            byte[] big = new byte[256 * 1024 + random.nextInt(1024)];
            synchronized (retained) {
                if (round % 4 == 0) retained.add(words);
                retained.add(rows.get(0));
                retained.add(joined.substring(0, 10));
                if (round % 8 == 0) retained.add(big);
            }
        }
    }

    static Map<String, Integer> countWords(Random random, int n) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge("w" + random.nextInt(5_000), 1, Integer::sum);
        }
        return counts;
    }

    static List<int[]> matrix(int rows, int columns) {
        List<int[]> list = new ArrayList<>();
        for (int i = 0; i < rows; i++) list.add(new int[columns]);
        return list;
    }
}
