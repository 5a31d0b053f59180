/* lib_path.h: which libheapsampler.so `load` gives the target, and making it visible there.
 *
 * The command's own library sits beside it (the build tree) or in ../lib/heapsampler/
 * (installed); --lib overrides. A target in another mount namespace may not see that
 * path: then the library is copied to /tmp/heapsampler-<version>/ inside the target,
 * owned by the target's user, where it stays (a loaded library cannot be removed); so is
 * a library the target's user may not read (a build tree in root's home). */
#ifndef HS_CLI_LIB_PATH_H
#define HS_CLI_LIB_PATH_H

#include <limits.h>
#include <stddef.h>

#include "cli_error.h"
#include "target.h"

/* The library to load: `override` (from --lib) or the one found beside the command.
 * Writes its absolute path into out. Returns 0, or an exit code (5) with the line in e. */
int cli_lib_find(const char *override, char *out, size_t len, cli_err *e);

/* The path under which the target sees `lib` (the same file), copying it into the target
 * when needed (call between cli_target_enter/leave). `copied` is set when a copy was made
 * or reused. Returns 0, or an exit code. */
int cli_lib_in_target(const cli_target *t, const char *lib, char *out, size_t len, int *copied, cli_err *e);

#endif
