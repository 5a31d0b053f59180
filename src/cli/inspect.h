/* inspect.h: what a target's memory says (is it a JVM, is heapsampler mapped in it, does
 * it refuse attach, what does it run), read across the privilege boundary under a
 * deadline, and whether a verb may go on with it.
 *
 * /proc/PID/maps, environ and cmdline read the target's memory: the kernel takes its mmap
 * lock and faults its pages, and a hostile target can make that block for as long as it
 * likes (a thread stuck on a FUSE page of its own while holding the lock, with a writer
 * queued behind it). So the root parent never reads them: a reader child
 * (target_side.h) opens them before it drops (the kernel checks the right to a
 * non-dumpable target's memory at open), reads them as the target's user, each capped
 * (64 MiB of maps, 1 MiB each of environment and command line), and sends back the facts
 * only; the parent kills it at the deadline and says which file did not answer. */
#ifndef HS_CLI_INSPECT_H
#define HS_CLI_INSPECT_H

#include <stdbool.h>

#include "cli_error.h"
#include "target.h"

/* Fills t->libjvm, agent, attach_disabled and main from the target's memory. Returns 0,
 * or 2 (gone), 4 (its maps unreadable), 6 (a read did not end before deadline: the line
 * names the file). */
int cli_target_read_memory(cli_target *t, long deadline, cli_err *e);

/* Opens pid (target.h) and reads its memory. Returns 0, or an exit code with the line in
 * e: 2, 4, 6, and when need_jvm, 3 when it is not a JVM, 5 when it refuses attach and 6
 * when it is stopped. When need_jvm is false, only 2, 4 and 6 are errors (t->libjvm stays
 * "" for a process that is not a JVM). After a success, cli_target_close releases it. */
int cli_target_inspect(int pid, cli_target *t, bool need_jvm, long deadline, cli_err *e);

#endif
