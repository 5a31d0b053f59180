/*
 * jtreg.SkippedException: jtreg reports a test that throws an exception of exactly this
 * name as skipped (not passed, not failed). jtreg does not ship the class to tests; this
 * is our own, found through @library /lib.
 */
package jtreg;

public class SkippedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SkippedException(String reason) {
        super(reason);
    }

    public SkippedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
