#!/usr/bin/env bash
# hook_ab.sh: heapsampler's own CPU per kept sample, two builds of the library side by side,
# precise enough to see a change of a few percent that attribution.sh's whole-hook figures
# (perf at 999 Hz, the workload's run-to-run spread) cannot resolve.
#
# Runs bench/AllocMix.java PAIRS times under each of two libraries, alternating (NEW, BASE,
# NEW, BASE, ...), each under `perf record -g` at HZ. Both libraries must be built with
# frame pointers (cmake -DCMAKE_C_FLAGS=-fno-omit-frame-pointer): perf unwinds through them,
# and without them most of the callback's samples lose their place under it.
# Per run, from the call chains, in perf samples turned into µs per kept sample:
#   own     = samples under hs_on_sampled_object_alloc that are not inside the stack walk
#             (GetStackTrace): the rate cap, the class lookup, interning, the tables;
#   walk    = samples inside that GetStackTrace (the JVM's work, the same for both);
#   sweeper = samples of heapsampler's own threads (the sweeper, mostly).
# and the samples the rate cap kept and the JVM offered (log=info). Prints each run, then the
# median over the pairs of NEW/BASE for own, sweeper and own+sweeper per kept sample, with
# min-max. perf's own cost inflates the absolute µs (about 1.7x at 4999 Hz with call
# graphs): read the ratios.
#
# Usage: bench/hook_ab.sh NEW_LIBRARY BASE_LIBRARY
# Knobs (environment): PAIRS=5  HZ=4999  ALLOCMIX_STEPS=48000000  OPTIONS=""  (agent options
#                      added to log=info for both)  JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
# Needs perf (Debian: linux-perf) with permission to profile the processes it starts.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"
[ $# -eq 2 ] || die "usage: $0 NEW_LIBRARY BASE_LIBRARY (both built with frame pointers)"
NEW=$(readlink -f "$1") && [ -f "$NEW" ] || die "no library at $1"
BASE=$(readlink -f "$2") && [ -f "$BASE" ] || die "no library at $2"
JAVA_HOME=$(find_java_home) || exit 1
PAIRS=${PAIRS:-5}
HZ=${HZ:-4999}
ALLOCMIX_STEPS=${ALLOCMIX_STEPS:-48000000}
WORK=${WORK:-/tmp/heapsampler-bench}
command -v perf >/dev/null || die "perf not found (Debian: apt-get install linux-perf)"
RUN_DIR=$WORK/hook_ab-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"
compile_workload "$JAVA_HOME" AllocMix "$WORK/classes"
RESULTS=$RUN_DIR/results.tsv
printf 'library\tpair\town_us\twalk_us\tsweeper_us\toffered\tkept\n' >"$RESULTS"

# The call chains of one perf.data, as "comm<TAB>frame,frame,..." lines (leaf first).
chains() {
    perf script -i "$1" -F comm,ip,sym 2>/dev/null | awk '
        /^\t/ { sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym); frames = frames (frames == "" ? "" : ",") sym; next }
        NF > 0 { if (comm != "") print comm "\t" frames; comm = $0; sub(/^[ \t]+/, "", comm); sub(/[ \t]+$/, "", comm); frames = "" }
        END { if (comm != "") print comm "\t" frames }'
}

# One profiled run of AllocMix under library $2; appends its figures as $1, pair $3.
measure() {
    local name=$1 lib=$2 pair=$3 data=$RUN_DIR/$1-$3.data out=$RUN_DIR/$1-$3.out
    perf record -q -F "$HZ" -g -o "$data" -- "$JAVA_HOME/bin/java" \
        "-agentpath:$lib=log=info,file=$RUN_DIR/$name-%p.pb.gz${OPTIONS:+,$OPTIONS}" \
        -Xms1g -Xmx1g -XX:+UseG1GC -cp "$WORK/classes" AllocMix "$ALLOCMIX_STEPS" \
        >"$out" 2>&1 || die "run $name $pair failed (see $out)"
    local counts
    counts=$(awk '/rate cap: [0-9]+ samples offered, [0-9]+ kept/ {
            for (i = 1; i < NF; i++) { if ($(i + 1) == "samples") o = $i; if ($(i + 1) == "kept") k = $i } }
        END { printf "%d %d", o, k }' "$out")
    chains "$data" | awk -F'\t' -v name="$name" -v pair="$pair" -v hz="$HZ" -v counts="$counts" '
        $1 ~ /^heapsampler/ { sweeper++; next }
        $1 !~ /^allocmix/ { next }
        {
            n = split($2, f, ",")
            for (i = 1; i <= n; i++) if (f[i] == "hs_on_sampled_object_alloc") break
            if (i > n) next
            walking = 0
            for (j = 1; j < i; j++) if (f[j] ~ /GetStackTrace|get_stack_trace/) walking = 1
            if (walking) walk++; else own++
        }
        END {
            split(counts, c, " ")
            if (c[2] <= 0) { print "no rate-cap line in the run: " name " " pair > "/dev/stderr"; exit 1 }
            us = 1e6 / hz / c[2]
            printf "%s\t%d\t%.3f\t%.3f\t%.3f\t%d\t%d\n", name, pair, own * us, walk * us, sweeper * us, c[1], c[2]
        }' >>"$RESULTS" || die "reading the profile of $name $pair failed"
    tail -1 "$RESULTS" >&2
    rm -f "$data"
}

note "JDK $(java_version "$JAVA_HOME"); AllocMix $ALLOCMIX_STEPS steps x 2 threads; $PAIRS pairs at $HZ Hz"
note "new: $NEW"
note "base: $BASE"
note "library pair own_us walk_us sweeper_us offered kept (us per kept sample)"
for pair in $(seq 1 "$PAIRS"); do
    measure new "$NEW" "$pair"
    measure base "$BASE" "$pair"
done

awk -F'\t' 'NR > 1 { v[$1 "," $2 ",own"] = $3; v[$1 "," $2 ",swp"] = $5; v[$1 "," $2 ",walk"] = $4
                     if ($2 > pairs) pairs = $2 }
    function report(label, what,    i, n, r, t, x, med, j) {
        n = 0
        for (i = 1; i <= pairs; i++) {
            if (what == "sum") { x = v["new," i ",own"] + v["new," i ",swp"]; t = v["base," i ",own"] + v["base," i ",swp"] }
            else { x = v["new," i "," what]; t = v["base," i "," what] }
            if (t > 0) r[++n] = x / t
        }
        for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { x = r[j]; r[j] = r[j - 1]; r[j - 1] = x }
        med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
        printf "new / base, %-28s median %.3f (%.3f-%.3f) over %d pairs\n", label, med, r[1], r[n], n
    }
    END {
        report("own work per kept sample:", "own")
        report("sweeper per kept sample:", "swp")
        report("own + sweeper per kept:", "sum")
        report("the walk per kept (control):", "walk")
    }' "$RESULTS"
echo "figures: $RESULTS"
