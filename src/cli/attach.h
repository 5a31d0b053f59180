/* attach.h: HotSpot's attach handshake and one `load` operation over its socket.
 *
 * The socket is /tmp/.java_pid<NSPID> in the target's root. When it is missing, the
 * command creates the trigger .attach_pid<NSPID> (in the target's cwd, else its /tmp),
 * sends SIGQUIT, waits for the socket with backoff, and removes the trigger, always.
 * SIGQUIT is never sent when it would do harm: not to a JVM that does not catch it (it
 * would die: -Xrs, or still starting), not with attach disabled (it would print a thread
 * dump on the application's stdout), not when the socket is already there. */
#ifndef HS_CLI_ATTACH_H
#define HS_CLI_ATTACH_H

#include "attach_proto.h"
#include "cli_error.h"
#include "target.h"

/* Runs `load library options` in the target, with the current credentials (call
 * cli_target_enter first). deadline is a cli_now_ms() time. On success (0) *resp points
 * into *raw (malloc'd, the caller frees). Returns 0 or an exit code (5, 6, 2). */
int cli_attach_load(const cli_target *t, const char *library, const char *options, long deadline,
                    cli_attach_response *resp, char **raw, cli_err *e);

#endif
