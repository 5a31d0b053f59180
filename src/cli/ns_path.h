/* ns_path.h: what /proc says about a target process, and the paths between the host's
 * view and the target's (pure: each takes the text of a /proc file, so containers and
 * other users are unit-tested without either).
 *
 * A target may live in its own pid and mount namespaces: HotSpot knows itself by its
 * namespaced pid (last field of "NSpid:" in /proc/PID/status) and names its files in its
 * own root; from the host those are reached from a descriptor of /proc/PID/root, never as
 * a "/proc/PID/root/..." string (resolve.h). */
#ifndef HS_CLI_NS_PATH_H
#define HS_CLI_NS_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The pid in the target's own namespace (last NSpid field), or host_pid when the kernel
 * gives no NSpid line. */
int cli_status_nspid(const char *status, int host_pid);

/* The effective uid and gid (second field of "Uid:" and "Gid:"). Returns 0, or -1. */
int cli_status_ids(const char *status, uid_t *euid, gid_t *egid);

/* Whether the process catches SIGQUIT ("SigCgt:" mask): HotSpot does once its signal
 * handlers are installed, unless -Xrs; an uncaught SIGQUIT would kill it. */
bool cli_status_catches_sigquit(const char *status);

/* Whether the process is stopped ("State:" T or t: SIGSTOP, a debugger): it would take a
 * SIGQUIT only when resumed, and print a thread dump then if the trigger is gone. */
bool cli_status_stopped(const char *status);
/* Whether the process has exited ("State:" Z or X: a zombie not yet reaped). */
bool cli_status_exited(const char *status);

/* Whether the process has an address space ("VmSize:" line): kernel threads have none,
 * and nothing of theirs is a JVM. */
bool cli_status_has_memory(const char *status);

/* The pid of the process tracing this one ("TracerPid:"; 0: none), or -1 when missing. */
long cli_status_tracer(const char *status);

/* From the text of /proc/PID/stat: the state letter and the start time (field 22, clock
 * ticks after boot). The command name in parentheses is the process's own and may hold
 * ") T 1": the fields are counted from its last ')'. Returns 0, or -1. */
int cli_stat_parse(const char *stat, char *state, unsigned long long *start_time);

/* The supplementary groups ("Groups:" line), at most max. Returns how many, or -1. */
int cli_status_groups(const char *status, gid_t *groups, int max);

/* The capability mask of a "CapEff:"-style line (key given), or -1 when it is missing. */
long long cli_status_caps(const char *status, const char *key);

/* The id a user namespace gives host_id, from the text of /proc/PID/uid_map or gid_map as
 * read from the host ("inside outside count" lines). Returns 0, or -1 when unmapped. */
int cli_id_inside(const char *map, unsigned long host_id, unsigned long *inside);

/* Finds the first mapping whose file is named `name` (its last path component) in the
 * text of /proc/PID/maps; copies its path (without " (deleted)") into out. */
bool cli_maps_find(const char *maps, const char *name, char *out, size_t len);

/* The JDK home of a libjvm.so path (.../lib/server/libjvm.so -> ...; the JDK 8 layout
 * .../jre/lib/amd64/server/libjvm.so -> the directory above jre). Returns 0, or -1. */
int cli_java_home(const char *libjvm, char *out, size_t len);

/* JAVA_VERSION from the text of a JDK's `release` file, quotes removed. */
bool cli_release_version(const char *release, char *out, size_t len);

/* Where `load` copies the library inside a target that cannot see ours:
 * /tmp/heapsampler-<version>/libheapsampler.so (the directory and the file). */
int cli_copied_lib_dir(char *out, size_t len, const char *version);
int cli_copied_lib_path(char *out, size_t len, const char *version);

/* Whether the JVM's options (NUL-separated command line, or an environment variable's
 * value) disable attach: the last -XX:[+-]DisableAttachMechanism wins. *seen tells
 * whether the option appeared at all. */
bool cli_args_disable_attach(const char *args, size_t len, char sep, bool *seen);

#endif
