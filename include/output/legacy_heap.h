/* legacy_heap.h: Go's legacy text heap profile, what net/http/pprof answers for
 * /debug/pprof/heap?debug=1 (runtime/pprof's writer, read back by pprof's legacy parser),
 * and the symbol table that answers pprof's /debug/pprof/symbol lookups for it.
 *
 *   heap profile: INUSE_OBJ: INUSE_BYTES [ALLOC_OBJ: ALLOC_BYTES] @ heap/2
 *   INUSE_OBJ: INUSE_BYTES [ALLOC_OBJ: ALLOC_BYTES] @ 0xRET 0xRET ...     (one per sample)
 *   #	0xPC	java.util.ArrayList.grow+0x0	java/util/ArrayList.java:237   (leaf first)
 *
 * The stacks are addresses, as Go's are: each frame (function, file, line) gets a stable
 * address PC derived from a hash of its name, file and line (the same in every answer of
 * this JVM, so a lookup matches the answer it follows); a sample line holds PC + 1, the
 * return address pprof subtracts one from, and the '#' comment line names PC. `go tool
 * pprof http://HOST:PORT/debug/pprof/heap?debug=1` parses the text, then asks
 * /debug/pprof/symbol for the names of those PCs, which hs_legacy_symbols_answer gives
 * from the same text.
 *
 * The values are the profile's own unbiased estimates. Go writes raw sample counts with
 * "@ heap/<2 x rate>" and pprof scales each line by 1 / (1 - exp(-avg/rate)); "@ heap/2"
 * says rate 1 (every allocation counted), so pprof scales nothing and the estimates pass
 * through unchanged. A line pprof would refuse (objects 0 with bytes > 0, after rounding)
 * gets 1 object, and the number of such lines is said in a comment. Past
 * HS_LEGACY_MAX_RECORDS lines (by in-use bytes, then allocated bytes), the smallest are
 * summed into one "[other sites]" line, so totals are exact. Pure, no JVM. */
#ifndef HS_LEGACY_HEAP_H
#define HS_LEGACY_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "base/text.h"

#define HS_LEGACY_MAX_RECORDS 10000
#define HS_LEGACY_OTHER_SITES "[other sites]"

/* The text of p (malloc'd, not NUL-terminated in *len). 0, or -1 on ENOMEM. */
int hs_legacy_heap_encode(const hs_profile *p, uint8_t **out, size_t *len);

/* The address hs_legacy_heap_encode gives a frame before collisions are resolved (a
 * collision moves the later frame up by 16 until free). */
uint64_t hs_legacy_frame_pc(const char *name, const char *filename, int64_t line);

typedef struct hs_legacy_symbols hs_legacy_symbols;

/* The symbols of a legacy text (its '#' lines). NULL on ENOMEM. */
hs_legacy_symbols *hs_legacy_symbols_of(const char *text, size_t len);
void hs_legacy_symbols_free(hs_legacy_symbols *s);
/* Symbols known. */
size_t hs_legacy_symbols_count(const hs_legacy_symbols *s);

/* The answer of /debug/pprof/symbol to query (len bytes: addresses separated by '+', each
 * "0x..." hex or decimal, as Go's handler reads them), as Go's handler writes it:
 * "num_symbols: 1\n" then "0xPC NAME\n" for each address found (each symbol at most once
 * per answer, so the answer is never longer than the table). s may be NULL (nothing
 * found). */
void hs_legacy_symbols_answer(const hs_legacy_symbols *s, const char *query, size_t len,
                              hs_text *out);

#endif
