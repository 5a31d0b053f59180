/* cli_faults.h: test-only pauses and switches of the command, read from the environment
 * variable HEAPSAMPLER_TEST_FAULTS (comma-separated items; the agent reads its own items
 * from the same variable in the JVM):
 *
 *   cli_stop_at=STEP   at STEP the process stops itself (SIGSTOP), so that a test sees it
 *                      stopped, swaps a file on the target's side, and sends SIGCONT: the
 *                      races of a hostile target made deterministic. STEP is one of
 *                      files (the target's /tmp opened, before the command's files are
 *                      made in it), attach (those made, before connecting), signal (before
 *                      SIGQUIT), read_reply (the agent answered, before its reply is
 *                      read), read_outputs (before the dump's files are read), copy_library
 *                      (the copy's directory opened, before the copy is written), drop
 *                      (the child has the target's ids and no capability, before it checks
 *                      them: a test tries to trace it there).
 *   cli_no_openat2     paths resolved component by component, as on kernels before 5.6.
 *
 * Without the variable nothing changes. */
#ifndef HS_CLI_FAULTS_H
#define HS_CLI_FAULTS_H

#include <stdbool.h>

/* Whether the item (e.g. "cli_no_openat2", or "cli_stop_at=attach") is set. */
bool cli_fault_set(const char *item);

/* Stops this process at step when cli_stop_at=step is set. */
void cli_fault_stop(const char *step);

#endif
