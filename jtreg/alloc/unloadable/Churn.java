/*
 * Churn: the class UnloadWorkload loads again and again, each time through a new class
 * loader that it then drops, so that the class is unloaded while the profile still holds
 * samples allocated by its methods (and objects of its nested class Blob).
 *
 * It must only reference JDK classes: its loaders delegate to the platform class loader,
 * not to the application class path. UnloadWorkload calls it through IntFunction.
 */
package unloadable;

import java.util.function.IntFunction;

public class Churn implements IntFunction<Object> {
    /** Objects of a class that is unloaded with Churn; its constructor allocates too. */
    static final class Blob {
        final long id;
        final int[] data;

        Blob(long id, int length) {
            this.id = id;
            this.data = new int[length];
        }
    }

    @Override
    public Object apply(int count) {
        return fill(count);
    }

    private Object[] fill(int count) {
        Object[] out = new Object[count];
        for (int i = 0; i < count; i++) {
            out[i] = (i & 1) == 0 ? new Blob(i, i & 15) : new byte[64 + (i & 255)];
        }
        return out;
    }
}
