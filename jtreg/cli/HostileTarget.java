/*
 * HostileTarget: CliTarget's application (ready line, stdin commands, exit code), with one
 * more retaining site, in a class named with terminal control sequences: a copy of
 * EvilTemplateClassName defined under the name "Evil ESC c CSI 2J BEL CR ClassName" (ESC c
 * resets the operator's terminal, the 8-bit CSI U+009B "2J" clears it, CR rewrites the
 * line; a class name may hold any of them, though not the '[' or ';' of the 7-bit CSI and
 * OSC forms), so that top, dump and paths carry those bytes from the target to the
 * command.
 */
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class HostileTarget {
    /** The defined class's name; in the class file (modified UTF-8, here the same as UTF-8)
     * as long as the template's. */
    static final String EVIL_NAME = "Evil\u001bc\u009b2J\u0007\rClassName";
    static final List<Object> HOLDER = new ArrayList<>();

    /** The evil site's arrays retained, then CliTarget's life (its ready line, stdin, exit code). */
    public static void main(String[] args) throws Exception {
        Class<?> evil = defineEvil();
        java.lang.reflect.Method retain = evil.getMethod("retain", List.class);
        retain.setAccessible(true); // the class is not public (it shares this file)
        retain.invoke(null, HOLDER);
        CliTarget.main(args);
    }

    /** EvilTemplateClassName's bytes with its name replaced (same length, so the file stays valid). */
    static Class<?> defineEvil() throws Exception {
        byte[] bytes;
        try (InputStream in = HostileTarget.class.getResourceAsStream("EvilTemplateClassName.class")) {
            bytes = in.readAllBytes();
        }
        byte[] from = "EvilTemplateClassName".getBytes(StandardCharsets.US_ASCII);
        byte[] to = EVIL_NAME.getBytes(StandardCharsets.UTF_8);
        if (from.length != to.length) throw new AssertionError("the names differ in length");
        int replaced = 0;
        for (int i = 0; i + from.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + from.length, from, 0, from.length)) {
                System.arraycopy(to, 0, bytes, i, to.length);
                replaced++;
            }
        }
        if (replaced == 0) throw new AssertionError("the template's name is not in its class file");
        byte[] patched = bytes;
        ClassLoader loader = new ClassLoader(HostileTarget.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (!name.equals(EVIL_NAME)) throw new ClassNotFoundException(name);
                return defineClass(null, patched, 0, patched.length);
            }
        };
        Class<?> c = loader.loadClass(EVIL_NAME);
        if (!c.getName().equals(EVIL_NAME)) throw new AssertionError("defined as " + c.getName());
        return c;
    }
}

/** The retaining site: 2000 byte[10000] kept in the list given. */
class EvilTemplateClassName {
    public static void retain(List<Object> into) {
        for (int i = 0; i < 2000; i++) into.add(new byte[10_000]);
    }
}
