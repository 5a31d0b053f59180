/* budget.c: splitting memory= among the tables (see budget.h).
 *
 * Per-entry worst cases, from the structures (sizes on x86-64):
 *   stack:   index slot 8 B x 2 (open addressing at half load) x up to 2 (power-of-two
 *            rounding) + by_id 8 B = 40 B, plus its record (32 B + 16 B a frame) in the
 *            frame arena, budgeted apart;
 *   bucket:  48 B + 32 B of index = 80 B;
 *   method:  32 B of index, plus names and line table in the symbol arena;
 *   class:   2 x 24 B slots + 8 B name pointer = 56 B, plus its name in the arena;
 *   live:    32 B a tracked object (the JNI weak ref itself is the JVM's memory; the bit a
 *            slot has in the sweeper's in-use map, 8 KB at the default track=, is left
 *            out: counting it would refuse track=16m at memory=1g for 2 MB);
 *   profile: building one costs about 3 x 4 B a frame of each bucket's stack plus pprof's
 *            tables and the gzip output; bounded below by a quarter of what remains.
 * After the live table, the rest R is split: 3/8 stack frames, 1/16 stack index, 1/8
 * symbols (index and arena), 1/8 buckets, 1/16 class slack, and a quarter for the profile. */
#include "control/budget.h"

#include <stdio.h>

#define STACK_INDEX_BYTES 40
#define AVG_STACK_RECORD 256 /* a 14-frame stack: ids beyond frames would go unused */
#define BUCKET_BYTES 80
#define METHOD_INDEX_BYTES 32
#define AVG_METHOD_NAMES 224 /* display name, system name, file, a dozen line entries */
#define CLASS_BYTES 56
#define AVG_CLASS_NAME 64
#define LIVE_SLOT_BYTES 32

static uint32_t clamp_u32(uint64_t n, uint32_t lo, uint32_t hi) {
    return n < lo ? lo : n > hi ? hi : (uint32_t)n;
}

size_t hs_budget_live_bytes(int64_t track) {
    return track > 0 ? (size_t)track * LIVE_SLOT_BYTES : 0;
}

int hs_budget_plan(int64_t memory, int64_t track, bool live, hs_budget *out, char *err,
                   size_t errlen) {
    size_t live_bytes = live ? hs_budget_live_bytes(track) : 0;
    if (memory < HS_BUDGET_MIN || live_bytes > (size_t)memory / 2) {
        snprintf(err, errlen,
                 "bad option 'track=%lld': the live table would need %zu MiB, more than half "
                 "of memory=%lldm; accepted: track= up to %lld at this memory= (or raise "
                 "memory= to %lldm)",
                 (long long)track, (live_bytes + (1 << 20) - 1) >> 20,
                 (long long)(memory >> 20), (long long)((size_t)memory / 2 / LIVE_SLOT_BYTES),
                 (long long)((2 * live_bytes + (1 << 20) - 1) >> 20));
        return -1;
    }
    size_t rest = (size_t)memory - live_bytes;
    hs_budget b = {.live_bytes = live_bytes};
    b.frame_bytes = rest / 8 * 3;
    b.stacks = clamp_u32(rest / 16 / STACK_INDEX_BYTES, 1024, 1u << 24);
    if ((uint64_t)b.stacks * AVG_STACK_RECORD > b.frame_bytes)
        b.stacks = clamp_u32(b.frame_bytes / AVG_STACK_RECORD, 1024, 1u << 24);
    size_t symbols = rest / 8;
    b.methods = clamp_u32(symbols / (METHOD_INDEX_BYTES + AVG_METHOD_NAMES), 1024, 1u << 24);
    b.classes = clamp_u32(rest / 16 / (CLASS_BYTES + AVG_CLASS_NAME), 1024, 1u << 24);
    /* One arena holds method names (the symbol share less the method index) and class
     * names (from the class share). */
    b.symbol_bytes = symbols - (size_t)b.methods * METHOD_INDEX_BYTES +
                     (size_t)b.classes * AVG_CLASS_NAME;
    b.buckets = clamp_u32(rest / 8 / BUCKET_BYTES, 1024, 1u << 24);
    b.bucket_reserve = b.buckets / 16;
    b.tables_bytes = live_bytes + b.frame_bytes + (size_t)b.stacks * STACK_INDEX_BYTES +
                     (size_t)b.methods * METHOD_INDEX_BYTES + b.symbol_bytes +
                     (size_t)b.classes * CLASS_BYTES + (size_t)b.buckets * BUCKET_BYTES;
    b.snapshot_bytes = (size_t)memory > b.tables_bytes ? (size_t)memory - b.tables_bytes : 0;
    *out = b;
    return 0;
}
