/* faults.h: delays and errors injected on purpose, for the tests of the agent's slow and
 * failing paths.
 *
 * Some teardown paths run only when a thread is late: a sampling callback still inside
 * the tables when VMDeath stops waiting for it, a sweeper thread that has not exited when
 * the final dump stops waiting for it. The tests make those threads late through the
 * environment variable HEAPSAMPLER_TEST_FAULTS, read once at startup:
 *
 *   HEAPSAMPLER_TEST_FAULTS=callback_delay_ms=3000,sweeper_exit_delay_ms=8000
 *
 * callback_delay_ms: every sampling callback that records sleeps this long first.
 * sweeper_exit_delay_ms: the sweeper sleeps this long after it is asked to stop.
 * line_table_error: GetLineNumberTable is not called; every method's line table "fails"
 *     with this JVMTI error code instead (e.g. 113, JVMTI_ERROR_INTERNAL).
 * Unset (the normal case), each check is one load of a zero. Unknown or malformed
 * items are reported on one line and ignored. */
#ifndef HS_FAULTS_H
#define HS_FAULTS_H

typedef enum {
    HS_FAULT_CALLBACK = 0,
    HS_FAULT_SWEEPER_EXIT,
    HS_FAULT_LINE_TABLE_ERROR,
    HS_FAULT_COUNT
} hs_fault;

/* Reads the faults from text (the variable's value; NULL: none). 0, or -1 if an item
 * was not understood (the others still apply). */
int hs_faults_configure(const char *text);

/* The value configured for a fault: milliseconds of delay, or an error code (0: none). */
int hs_fault_value(hs_fault fault);

/* Milliseconds of delay configured for a fault (0: none). */
int hs_fault_delay_ms(hs_fault fault);

/* Sleeps for the fault's delay, if any. */
void hs_fault_delay(hs_fault fault);

#endif
