/*
 * LineTableWorkload: allocates 64 MB in 4 KiB arrays from one method, so that a profile at
 * interval=4k has thousands of samples under LineTableWorkload.allocate (LineTableFailureTest
 * reads that frame's line, or its absence).
 */
public class LineTableWorkload {
    static volatile Object sink;

    public static void main(String[] args) {
        for (int i = 0; i < 16_384; i++) allocate();
    }

    static void allocate() {
        sink = new byte[4096];
    }
}
