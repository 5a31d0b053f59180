/*
 * AttachCopy: attaches to its own JVM and loads a library by path, as jcmd's
 * JVMTI.agent_load does, with the options given; prints "OK" or "REFUSED: <why>", then
 * allocates a little and exits with 5. Needs -Djdk.attach.allowAttachSelf=true.
 *
 * Usage: AttachCopy <library> <options>
 */
import com.sun.tools.attach.VirtualMachine;

public class AttachCopy {
    public static void main(String[] args) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgentPath(args[0], args[1]);
            System.out.println("OK");
        } catch (Exception e) {
            System.out.println("REFUSED: " + e);
        } finally {
            vm.detach();
        }
        byte[][] kept = new byte[256][];
        for (int i = 0; i < 4096; i++) kept[i % 256] = new byte[1024];
        System.out.println("AttachCopy: done, " + kept.length);
        System.exit(5);
    }
}
