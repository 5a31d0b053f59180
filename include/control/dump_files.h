/* dump_files.h: the names of the profiles one run writes, and which periodic ones it keeps.
 *
 * Pure C (no JVM, no I/O), so every rule is unit-tested:
 *  - file= is expanded per file: %p the pid, %t the time the file is written, %n the
 *    dump's sequence number (1, 2, ... for every name handed out), %% a '%'.
 *  - A kind of dump may put a suffix before the extension: "heap.pb.gz" becomes
 *    "heap-oom.pb.gz" or "heap-peak.pb.gz". The extension is what follows the last '.'
 *    of the file's own name, with the part before it when that is ".gz" (".pb.gz").
 *  - Numbered dumps (periodic, on demand) of a pattern without %n and %t get "-<n>"
 *    before the extension. A name never repeats within a run: a pattern with %t but no
 *    %n that would give a second name with the same suffix in the same second (or in an
 *    earlier one, the clock having been set back) also gets "-<n>".
 *  - keep=<n>: the periodic files this run wrote are remembered, in memory only; when
 *    there are more than n, the oldest is handed back for deletion. Nothing else is ever
 *    deleted: no directory listing, no glob.
 * Not thread-safe: the caller serializes (dumps.c holds its dump lock). */
#ifndef HS_DUMP_FILES_H
#define HS_DUMP_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Distinct suffixes whose last %t is remembered ("", oom, peak, oom-peak, oom-2, ...);
 * beyond that, a name with %t and no %n always gets "-<n>" (still unique). */
#define HS_DUMP_SUFFIXES 16

typedef struct {
    char *pattern;       /* file= (owned copy) */
    long pid;
    bool has_n, has_t;   /* the pattern has %n / %t */
    unsigned long seq;   /* last sequence number handed out */
    struct {             /* newest %t used so far per suffix (has_t only) */
        char suffix[32]; /* "" for none */
        time_t time;
    } times[HS_DUMP_SUFFIXES];
    uint32_t ntimes;
    uint32_t keep;       /* periodic files kept; 0 = all */
    char **kept;         /* ring of keep paths written (owned), oldest at kept_first */
    uint32_t nkept, kept_first;
} hs_dump_files;

/* pattern: file= (already checked by options.c). keep: 0 keeps every file. 0, or -1 on
 * ENOMEM. */
int hs_dump_files_init(hs_dump_files *f, const char *pattern, long pid, uint32_t keep);
void hs_dump_files_free(hs_dump_files *f);

/* Makes the name of the next dump into out. suffix (NULL: none) goes before the
 * extension after a '-'; numbered asks for "-<n>" when the pattern has neither %n nor %t.
 * Consumes a sequence number. 0, or -1 with the reason in err (name too long). */
int hs_dump_files_name(hs_dump_files *f, const char *suffix, bool numbered, time_t now,
                       char *out, size_t outlen, char *err, size_t errlen);

/* Names a dump that has its own pattern (an on-demand dump's file=): expanded like
 * file= (%p, %t = now, %n = the next sequence number, which it consumes). 0, or -1 with
 * the reason in err (unknown escape, too long). */
int hs_dump_files_name_pattern(hs_dump_files *f, const char *pattern, time_t now, char *out,
                               size_t outlen, char *err, size_t errlen);

/* Inserts "-suffix" into path before its extension (see above). 0, or -1 if it does not
 * fit in outlen. path and out may not overlap. */
int hs_dump_insert_suffix(const char *path, const char *suffix, char *out, size_t outlen);

/* Remembers a periodic file just written. When more than keep are remembered, the oldest
 * is forgotten and copied to evicted (the caller deletes it): returns 1. Returns 0 when
 * nothing is to be deleted, -1 on ENOMEM (the path is then not remembered: never deleted). */
int hs_dump_files_retain(hs_dump_files *f, const char *path, char *evicted, size_t evicted_len);

#endif
