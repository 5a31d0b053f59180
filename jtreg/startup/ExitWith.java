/*
 * ExitWith: the program the startup tests run under the agent. It allocates about 1 MB
 * (so a few samples are taken at the default interval), prints MARKER so a test can tell
 * that main ran, then returns normally when its argument is 0, else calls System.exit(N).
 */
import java.util.ArrayList;
import java.util.List;

public class ExitWith {
    public static final String MARKER = "ExitWith: main ran";

    public static void main(String[] args) {
        int code = Integer.parseInt(args[0]);
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 1024; i++) kept.add(new byte[1024]);
        System.out.println(MARKER + ", kept " + kept.size() + " arrays");
        if (code != 0) System.exit(code);
    }
}
