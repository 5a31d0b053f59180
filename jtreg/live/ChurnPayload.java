/*
 * ChurnPayload: the class ChurnWorkload defines again and again, each time in a new class
 * loader of its own, and drops with the loader so the JVM unloads it. Its method
 * allocates (so the agent samples stacks whose frames belong to classes that are
 * unloaded later) and returns a chain of its own instances, which keeps the class and its
 * loader alive for as long as the caller holds the chain.
 */
import java.util.function.IntFunction;

public class ChurnPayload implements IntFunction<Object> {
    private final byte[] data;
    private ChurnPayload next;

    public ChurnPayload() {
        this(0);
    }

    private ChurnPayload(int size) {
        data = new byte[size];
    }

    /** A chain of n links, each holding a byte[] of 64..1087 bytes. */
    @Override
    public Object apply(int n) {
        ChurnPayload head = null;
        for (int i = 0; i < n; i++) {
            ChurnPayload link = new ChurnPayload(64 + (i * 97) % 1024);
            link.next = head;
            head = link;
        }
        return head;
    }
}
