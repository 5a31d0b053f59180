/* privilege.c: taking the target's identity in the child (see privilege.h). */
#include "privilege.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli_faults.h"
#include "ns_path.h"

/* Whether the target's user namespace is another than ours. */
static int other_userns(const cli_target *t, int *fd) {
    struct stat mine, theirs;
    *fd = openat(t->procfd, "ns/user", O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (*fd < 0 || fstat(*fd, &theirs) != 0 || stat("/proc/self/ns/user", &mine) != 0) return -1;
    if (mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino) {
        close(*fd);
        *fd = -1;
    }
    return 0;
}

/* The id the target's namespace gives host_id, from its uid_map or gid_map. */
static int inside_id(const cli_target *t, const char *map_name, unsigned long host_id, unsigned long *inside) {
    char *map = cli_read_proc(t, map_name, 1 << 16, NULL);
    int rc = map ? cli_id_inside(map, host_id, inside) : -1;
    free(map);
    return rc;
}

int cli_identity_read(const cli_target *t, cli_identity *id, cli_err *e) {
    memset(id, 0, sizeof *id);
    id->userns_fd = -1;
    id->uid = t->euid;
    id->gid = t->egid;
    if (geteuid() != 0) return 0; /* target.c made sure we are the target's user */
    id->change = true;
    char *status = cli_read_proc(t, "status", 1 << 16, NULL);
    id->ngroups = status ? cli_status_groups(status, id->groups, CLI_MAX_GROUPS) : -1;
    free(status);
    if (id->ngroups < 0)
        return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d is gone (no groups in its status)", t->pid);
    if (other_userns(t, &id->userns_fd) != 0)
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot open the user namespace of process %d: %s", t->pid,
                        strerror(errno));
    if (id->userns_fd < 0) return 0;
    unsigned long uid, gid;
    if (inside_id(t, "uid_map", t->euid, &uid) != 0 || inside_id(t, "gid_map", t->egid, &gid) != 0) {
        cli_identity_close(id);
        return cli_fail(e, CLI_EXIT_PERMISSION,
                        "process %d runs as uid %u gid %u, which its user namespace does not map", t->pid,
                        (unsigned)t->euid, (unsigned)t->egid);
    }
    id->uid = (uid_t)uid;
    id->gid = (gid_t)gid;
    return 0;
}

void cli_identity_close(cli_identity *id) {
    if (id->userns_fd >= 0) close(id->userns_fd);
    id->userns_fd = -1;
}

bool cli_status_no_caps(const char *status) {
    static const char *const sets[] = {"CapInh:", "CapPrm:", "CapEff:", "CapAmb:"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        long long caps = cli_status_caps(status, sets[i]);
        bool optional = i == 3; /* CapAmb: kernels before 4.3 have no line */
        if (caps > 0 || (caps < 0 && !optional)) return false;
    }
    return true;
}

static int drop_capabilities(void) {
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
    memset(none, 0, sizeof none);
    return (int)syscall(SYS_capset, &head, none);
}

static bool groups_are(const gid_t *want, int n) {
    gid_t have[CLI_MAX_GROUPS + 1];
    int m = getgroups(CLI_MAX_GROUPS + 1, have);
    if (m != n) return false;
    for (int i = 0; i < n; i++)
        if (have[i] != want[i]) return false;
    return true;
}

/* Who traces this process (0: nobody), from its status; -1 when unreadable. */
static long own_tracer(void) {
    char *status = cli_read_file("/proc/self/status", 1 << 16, NULL);
    long tracer = status ? cli_status_tracer(status) : -1;
    free(status);
    return tracer;
}

/* tracer: who traced the child before it changed ids (the operator's strace -f, or 0). */
static int check_became(const cli_identity *id, long tracer, cli_err *e) {
    uid_t ru, eu, su;
    gid_t rg, eg, sg;
    if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0)
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot read back the ids taken: %s", strerror(errno));
    if (id->change && (ru != id->uid || eu != id->uid || su != id->uid || rg != id->gid || eg != id->gid ||
                       sg != id->gid))
        return cli_fail(e, CLI_EXIT_PERMISSION,
                        "the JVM's user was not fully taken (uids %u/%u/%u, gids %u/%u/%u): stopping",
                        (unsigned)ru, (unsigned)eu, (unsigned)su, (unsigned)rg, (unsigned)eg, (unsigned)sg);
    char *status = cli_read_file("/proc/self/status", 1 << 16, NULL);
    bool no_caps = status && cli_status_no_caps(status);
    long now_traced_by = status ? cli_status_tracer(status) : -1;
    free(status);
    if (!no_caps)
        return cli_fail(e, CLI_EXIT_PERMISSION, "capabilities remain after taking the JVM's user: stopping");
    if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
        return cli_fail(e, CLI_EXIT_PERMISSION, "the command's worker is still dumpable after taking the JVM's user: "
                                                "stopping");
    if (now_traced_by != tracer)
        return cli_fail(e, CLI_EXIT_PERMISSION, "process %ld traced the command's worker while it took the JVM's "
                                                "user: stopping", now_traced_by);
    return 0;
}

/* Not dumpable before the first id changes, so that the JVM's user can never trace the
 * child (and take its descriptors: the target's /proc, the channel, the library), and
 * again after the last: a change of ids sets dumpability to fs.suid_dumpable, which may be
 * 1. Dropping capabilities changes no id: a uid-0 target's child would otherwise be uid 0,
 * without capabilities and dumpable, traceable by any uid-0 process (a container's root). */
int cli_become(const cli_identity *id, cli_err *e) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot make the command's worker undumpable: %s", strerror(errno));
    long tracer = own_tracer();
    if (tracer < 0) return cli_fail(e, CLI_EXIT_PERMISSION, "cannot read the command's worker's own status");
    if (id->change) {
        if (setgroups((size_t)id->ngroups, id->groups) != 0 || !groups_are(id->groups, id->ngroups))
            return cli_fail(e, CLI_EXIT_PERMISSION, "cannot take the JVM's groups: %s", strerror(errno));
        if (id->userns_fd >= 0 && setns(id->userns_fd, CLONE_NEWUSER) != 0)
            return cli_fail(e, CLI_EXIT_PERMISSION, "cannot enter the JVM's user namespace: %s", strerror(errno));
        if (setresgid(id->gid, id->gid, id->gid) != 0 || setresuid(id->uid, id->uid, id->uid) != 0)
            return cli_fail(e, CLI_EXIT_PERMISSION, "cannot take the JVM's user id %u: %s", (unsigned)id->uid,
                            strerror(errno));
    }
    if (drop_capabilities() != 0)
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot drop capabilities: %s", strerror(errno));
    cli_fault_stop("drop");
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    return check_became(id, tracer, e);
}
