/* attach.h: HotSpot's attach handshake and one `load` operation over its socket, run on
 * the target's side (target_side.h: as the target's user, from descriptors of its tree).
 *
 * The socket is /tmp/.java_pid<NSPID> in the target's root, opened without following a
 * link and checked (a socket, the target user's); the command connects to that very
 * inode (through /proc/self/fd) and then checks the peer with SO_PEERCRED: the listening
 * process must be the target itself, so an attacker's socket put in its place is refused
 * before a byte is sent. When the socket is missing, the command creates the trigger
 * .attach_pid<NSPID> (in the target's cwd, else its /tmp), sends SIGQUIT through the
 * target's pidfd, waits for the socket with backoff, and removes the trigger, always.
 * SIGQUIT is never sent when it would do harm: not to a JVM that does not catch it (it
 * would die: -Xrs, or still starting), not with attach disabled (it would print a thread
 * dump on the application's stdout), not to a stopped JVM, not when the socket is there.
 * A stopped or exited target is noticed within 100 ms at every wait. */
#ifndef HS_CLI_ATTACH_H
#define HS_CLI_ATTACH_H

#include "attach_proto.h"
#include "cli_error.h"
#include "target_side.h"

/* Runs `load library options` in the target. On success (0) *resp points into *raw
 * (malloc'd, the caller frees). Returns 0 or an exit code (5, 6, 2). */
int cli_attach_load(cli_side *s, const char *library, const char *options, cli_attach_response *resp, char **raw,
                    cli_err *e);

/* What the JVM's perfdata (/tmp/hsperfdata_<user>/<NSPID>, the target user's) says:
 * 1 attach supported, 0 disabled (-XX:+DisableAttachMechanism from any source), -1 cannot
 * tell (-XX:-UsePerfData, or no such file). */
int cli_attach_supported(cli_side *s);

/* Whether the attach socket is there (and the target user's). */
bool cli_attach_socket_present(cli_side *s);

#endif
