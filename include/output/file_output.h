/* file_output.h: writing output files safely.
 *
 * A profile replaces its target atomically: it is written to a fresh temporary file in
 * the same directory (a random name nobody can pre-create, created with
 * O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644, so a planted symlink is never followed), fsync'd,
 * then renamed over the target. A failure at any step removes the temporary file and
 * leaves the previous profile untouched. */
#ifndef HS_FILE_OUTPUT_H
#define HS_FILE_OUTPUT_H

#include <stddef.h>

/* The longest path (with its NUL) a profile is written to, and that an option or a command
 * takes: Linux's PATH_MAX. */
#define HS_PATH_MAX 4096

/* Returns 0, or -1 with "cannot write PATH: <strerror>" (and which step) in err. */
int hs_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Checks that the directory that will hold path exists and is writable, and pins it (kept
 * open: later writes and deletes in it go through that descriptor). Callers serialize:
 * the startup, then commands under the dumps lock (dumps.h). Returns 0, or -1 with a
 * message naming the directory and the errno text in err. */
int hs_check_output_dir(const char *path, char *err, size_t errlen);

/* Deletes path's file (keep=) through its directory as pinned (a directory swapped for a
 * symlink since is not followed), or as opened now when never pinned. 0, or -1 with
 * "cannot delete PATH: <strerror>" in err. */
int hs_remove_file(const char *path, char *err, size_t errlen);

#endif
