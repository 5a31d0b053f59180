/* file_output.h: writing output files safely.
 *
 * A profile replaces its target atomically: it is written to a fresh temporary file in
 * the same directory (created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644, so a planted
 * symlink is never followed), fsync'd, then renamed over the target. A failure at any
 * step removes the temporary file and leaves the previous profile untouched. */
#ifndef HS_FILE_OUTPUT_H
#define HS_FILE_OUTPUT_H

#include <stddef.h>

/* The longest path (with its NUL) a profile is written to, and that an option or a command
 * takes: Linux's PATH_MAX. */
#define HS_PATH_MAX 4096

/* Returns 0, or -1 with "cannot write PATH: <strerror>" (and which step) in err. */
int hs_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Checks at startup that the directory that will hold path exists and is writable.
 * Returns 0, or -1 with a message naming the directory and the errno text in err. */
int hs_check_output_dir(const char *path, char *err, size_t errlen);

#endif
