/* privilege.h: becoming the target's user, fully, in a forked child (the command's one
 * privilege boundary is target_side.h; this is how its child crosses it).
 *
 * cli_identity_read, in the parent, says who to become, from /proc through the target's
 * own /proc/PID descriptor: the target's effective uid and gid, its supplementary groups,
 * and, when it lives in another user namespace (a container), that namespace and the ids
 * it gives them. cli_become, in the child, takes them in this order: not dumpable (before
 * any id changes: the target's user can never ptrace the child), setgroups (the target's
 * groups: root's group 0 never stays), setns into the target's user namespace (so a JVM's
 * "root" in a container is no root here), setresgid, setresuid, every capability dropped
 * (a uid-0 target too), not dumpable again (a change of ids resets it to
 * fs.suid_dumpable); then checks it: real, effective and saved ids, the groups, CapEff,
 * CapPrm and CapAmb all 0 in /proc/self/status, not dumpable, and traced by no one but who
 * traced it before (the operator's strace -f). An operator who is not root already is the
 * target's user (target.c checks that) and only drops capabilities. */
#ifndef HS_CLI_PRIVILEGE_H
#define HS_CLI_PRIVILEGE_H

#include <stdbool.h>
#include <sys/types.h>

#include "cli_error.h"
#include "target.h"

#define CLI_MAX_GROUPS 256

typedef struct {
    bool change;                   /* the operator is root: the ids are changed */
    uid_t uid;                     /* as the target's user namespace names them */
    gid_t gid;
    gid_t groups[CLI_MAX_GROUPS];  /* as the host names them (set before the setns) */
    int ngroups;
    int userns_fd;                 /* the target's user namespace, or -1: it is ours */
} cli_identity;

/* Fills id for t (the parent, as root or as the target's user). Returns 0, or an exit
 * code (4, 2) with the line in e. */
int cli_identity_read(const cli_target *t, cli_identity *id, cli_err *e);
void cli_identity_close(cli_identity *id);

/* Becomes id and checks it (the child). Returns 0, or 4 with the line in e: the child
 * must then touch nothing on the target's side. */
int cli_become(const cli_identity *id, cli_err *e);

/* Whether the capability sets in a /proc/PID/status text are all empty (pure). */
bool cli_status_no_caps(const char *status);

#endif
