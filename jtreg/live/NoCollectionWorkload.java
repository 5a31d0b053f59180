/*
 * NoCollectionWorkload: allocates without needing a collection (run it with a heap or young
 * generation large enough, or under Epsilon): retains RETAINED arrays of SIZE bytes, drops
 * GARBAGE arrays of GARBAGE_SIZE bytes, then, through the attach mechanism jcmd uses, asks
 * the agent already loaded for the text report ("dump,format=text,out=<args[1]>", made
 * absolute against the working directory and created empty first, as the operator's
 * command does). Needs
 * -Djdk.attach.allowAttachSelf=true. Prints "OK report" or "REFUSED report: ...".
 *   NoCollectionWorkload <library> <report.txt>
 */
import com.sun.tools.attach.VirtualMachine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

public class NoCollectionWorkload {
    static final int RETAINED = 3000, SIZE = 10_000;
    static final int GARBAGE = 20_000, GARBAGE_SIZE = 1000;
    static final List<byte[]> retained = new ArrayList<>();
    static volatile Object sink;

    static void retain() {
        for (int i = 0; i < RETAINED; i++) retained.add(new byte[SIZE]);
    }

    static void garbage() {
        for (int i = 0; i < GARBAGE; i++) sink = new byte[GARBAGE_SIZE];
    }

    public static void main(String[] args) throws Exception {
        retain();
        garbage();
        Path out = Files.createFile(Paths.get(args[1]).toAbsolutePath()); /* as the command makes it */
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgentPath(args[0], "dump,format=text,out=" + out);
            System.out.println("OK report");
        } catch (Exception e) {
            System.out.println("REFUSED report: " + e);
        }
        vm.detach();
        System.out.println("retained " + retained.size());
    }
}
