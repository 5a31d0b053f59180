/*
 * ForcedGcWorkload: retains RETAINED arrays of SIZE bytes, then, through the attach
 * mechanism jcmd uses, asks the agent already loaded for "dump,file=<plain>" and then
 * "dump,gc=1,file=<forced>". Needs -Djdk.attach.allowAttachSelf=true. Prints "OK <step>" or
 * "REFUSED <step>: ..." per command.
 *   ForcedGcWorkload <library> <plain.pb.gz> <forced.pb.gz>
 */
import com.sun.tools.attach.VirtualMachine;

import java.util.ArrayList;
import java.util.List;

public class ForcedGcWorkload {
    static final int RETAINED = 4000;
    static final int SIZE = 10_000;
    static final List<byte[]> retained = new ArrayList<>();
    static volatile Object sink;

    static void retain() {
        for (int i = 0; i < RETAINED; i++) retained.add(new byte[SIZE]);
    }

    static void send(VirtualMachine vm, String library, String step, String command) {
        try {
            vm.loadAgentPath(library, command);
            System.out.println("OK " + step);
        } catch (Exception e) {
            System.out.println("REFUSED " + step + ": " + e);
        }
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        retain();
        for (int i = 0; i < 200_000; i++) sink = new byte[1000]; /* some collections */
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        send(vm, args[0], "plain", "dump,file=" + args[1]);
        send(vm, args[0], "forced", "dump,gc=1,file=" + args[2]);
        vm.detach();
        System.out.println("retained " + retained.size());
    }
}
