/* lib_path.h: which libheapsampler.so `load` gives the target, and making it visible there.
 *
 * The command's own library sits beside it (the build tree) or in ../lib/heapsampler/
 * (installed); --lib overrides. Whether the target may use that very file is decided on
 * the target's side, as its user (target_side.h; access() as root would say yes to
 * everything): the same path in the target's root must be the same file (not in another
 * mount namespace, not behind a link), and the target's user must be able to read it. If
 * not, the library is copied to /tmp/heapsampler-<version>/ inside the target, a
 * directory of the target's user, through descriptors only (a directory swapped for a
 * link is never followed), and the path the JVM will open is checked to lead to that copy;
 * it stays there (a loaded library cannot be removed). */
#ifndef HS_CLI_LIB_PATH_H
#define HS_CLI_LIB_PATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli_error.h"
#include "target_side.h"

/* The library to load: `override` (from --lib) or the one found beside the command.
 * Writes its absolute path into out. Returns 0, or an exit code (5) with the line in e. */
int cli_lib_find(const char *override, char *out, size_t len, cli_err *e);

/* In the child: the path under which the target sees the operator's library `lib` (open
 * as s->libfd), copying it into the target when needed; *copied when a copy was made or
 * reused. Returns 0, or an exit code. */
int cli_lib_in_target(cli_side *s, const char *lib, char *out, size_t len, bool *copied, cli_err *e);

#endif
