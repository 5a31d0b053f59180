/*
 * LeakPaths: a known holder chain, static map -> list -> node -> byte[] (the map also in a
 * local variable of main), then a dump with
 * retention paths through the attach mechanism jcmd uses (needs
 * -Djdk.attach.allowAttachSelf=true and the agent loaded at startup).
 *
 *   LeakPaths <library> <file>    dump,paths=1,file=<file>; prints OK or REFUSED
 */
import com.sun.tools.attach.VirtualMachine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class LeakPaths {
    static final int NODES = 2000;
    static final int PAYLOAD = 8192;
    static final Map<String, List<Node>> HOLDER = new HashMap<>();

    static final class Node {
        final byte[] payload;

        Node(byte[] payload) {
            this.payload = payload;
        }
    }

    public static void main(String[] args) throws Exception {
        fill();
        System.gc(); // the payloads are in use from now on (allocated before the last GC)
        Thread.sleep(100);
        Map<String, List<Node>> local = HOLDER; // a stack local reaches the chain too
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgentPath(args[0], "dump,paths=1,file=" + args[1]);
            System.out.println("OK paths (" + local.size() + " list)");
        } catch (Exception e) {
            System.out.println("REFUSED paths: " + e);
        }
        vm.detach();
    }

    // During the dump main holds the map in a local too: the path to show is the static field.
    static void fill() {
        List<Node> list = new ArrayList<>();
        HOLDER.put("cache", list);
        for (int i = 0; i < NODES; i++) list.add(new Node(new byte[PAYLOAD]));
    }
}
