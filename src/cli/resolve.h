/* resolve.h: opening paths on the target's side without leaving its tree, and the checks
 * on every file read from there.
 *
 * Paths are resolved from a descriptor (an O_PATH fd of the target's root, or of its /tmp
 * once opened), never as strings from the host: with openat2(RESOLVE_IN_ROOT |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) where the kernel has it (5.6+), else one
 * component at a time with openat(O_NOFOLLOW | O_DIRECTORY). Either way a symbolic link
 * anywhere on the path is refused (ELOOP), and "." and ".." components are refused before
 * any lookup (EINVAL), so the walk cannot leave the directory it starts from. The caller
 * runs as the target's user (target_side.h), so permissions are the target's too.
 *
 * A file read from the target's side must be a regular file under a size cap, and, when it
 * is one made for the command (the agent's answer and outputs, perfdata), owned by the
 * reader (the target's user) with one link; it is opened O_NOFOLLOW | O_NONBLOCK (a FIFO
 * or a device never blocks the open) and read under the command's deadline. A JDK's
 * release file may be anyone's, hard-linked (ostree): it is read as the target's user. */
#ifndef HS_CLI_RESOLVE_H
#define HS_CLI_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli_error.h"

/* The next component of path at *p ('/'-separated, leading and repeated '/' skipped),
 * copied into out. Returns 1 with *p advanced, 0 at the end, -1 for ".", ".." or a
 * component longer than len - 1 (pure). */
int cli_path_next(const char **p, char *out, size_t len);

/* Whether path may be resolved at all: non-empty, no "." or ".." component (pure). */
bool cli_path_acceptable(const char *path);

/* Opens path below dirfd (an absolute path counts from dirfd) with open flags (O_CLOEXEC is
 * added, and O_NOCTTY unless O_PATH: a terminal there never becomes ours; no link is
 * followed) and mode for O_CREAT. Returns the fd, or -1 with errno: ELOOP
 * for a symbolic link on the way, EINVAL for a refused path, else openat's. */
int cli_resolve(int dirfd, const char *path, int flags, mode_t mode);

/* Forces the component-by-component walk even where openat2 exists (tests; the command
 * does so when HEAPSAMPLER_TEST_FAULTS has cli_no_openat2). */
void cli_resolve_force_fallback(bool on);
/* Whether the last cli_resolve used openat2. */
bool cli_resolve_used_openat2(void);

/* What a file read from the target's side must be. */
typedef struct {
    bool check_owner;         /* owned by `owner`, one link (the agent's files; not a JDK's release) */
    uid_t owner;
    unsigned long long max_size;
} cli_file_rules;

/* Why a file with this stat is refused, written into why ("a FIFO, not a regular file",
 * "owned by uid 0, not by the JVM's user (uid 1001)", "2 links: a hard link", "1.0 TB,
 * over the 64 MiB limit"); NULL when it is acceptable (pure). */
const char *cli_file_refusal(const struct stat *st, const cli_file_rules *rules, char *why, size_t len);

/* A byte count for people: "512 B", "3.4 KiB", "64 MiB", "1.0 TiB" (pure). */
void cli_format_bytes(unsigned long long bytes, char *out, size_t len);

/* Opens path below dirfd for reading, checked against rules. `label` names the file in
 * the failure line ("the agent's answer /tmp/.heapsampler-...reply of process 42").
 * Returns the fd with *st filled, or -1 with the line in e (exit code `code`). */
int cli_open_checked(int dirfd, const char *path, const cli_file_rules *rules, const char *label, int code,
                     struct stat *st, cli_err *e);

/* Reads up to max bytes from fd, waiting for no one: stops at EOF, at max or at deadline
 * (a cli_now_ms() time). Returns the count, or -1 with errno (ETIMEDOUT past deadline). */
ssize_t cli_read_bounded(int fd, char *buf, size_t max, long deadline);

/* Opens (cli_open_checked) and reads a whole file into a malloc'd NUL-terminated buffer.
 * Returns 0, or `code` with the line in e. */
int cli_read_checked(int dirfd, const char *path, const cli_file_rules *rules, const char *label, int code,
                     long deadline, char **text, size_t *len, cli_err *e);

#endif
