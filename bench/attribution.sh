#!/usr/bin/env bash
# attribution.sh: what the JVM's sampling machinery and heapsampler cost, read from CPU
# profiles of the process rather than from A/B CPU times. On a shared 2-core machine the
# A/B ratios of bench/overhead.sh spread over +-3 % per round, wider than the whole cost of
# the JVM's sampling at 512k; a profile of each run attributes its CPU samples to code, so
# the part under the allocation slow path's sampling hook and the agent's own threads are
# measured inside the same run, free of the workload's run-to-run variance (mostly GC).
#
# Runs bench/AllocMix.java RUNS times under each of: the floor agent with an empty
# SampledObjectAlloc callback at 512k (what the JVM's sampling costs by itself); the
# minimal agent: the floor agent walking the stack and making a weak ref of every sample,
# at MINIMAL_INTERVAL (8m: the JVM then offers AllocMix about the 1,000 samples a second
# heapsampler's default rate cap keeps), the least any JVMTI live-heap profiler keeping
# that many stacks can cost; and heapsampler at its default options. Alternating, each
# under `perf record -g` (999 Hz).
# Per run it reads, in CPU milliseconds (samples / 999 Hz):
#   hook   = inclusive time under MemAllocator::Allocation::notify_allocation_jvmti_sampler
#            in the application's threads: the JVM posting the event, the callback, and for
#            heapsampler the rate cap, the stack walks and the tables of the kept samples;
#   agent  = time in heapsampler's own threads (sweeper, and any endpoint or push thread);
#   total  = hook + agent, and the process's whole CPU time.
# Prints each run, then per configuration the mean and min-max (and the stacks kept or
# walked a run), the ratios of the means heapsampler / floor and minimal / floor for hook and
# total, and every heapsampler configuration's total over the minimal agent's, as it is and
# per stack kept (the minimal agent walks about, not exactly, as many).
#
# VARIANTS adds heapsampler configurations to every round, for before/after comparisons of a
# change in one interleaved run: space-separated NAME=LIBRARY[:OPTIONS] (OPTIONS without
# spaces, e.g. "base=/tmp/base/libheapsampler.so interval6m=build/libheapsampler.so:interval=6m").
# Each heapsampler run also reports the samples it kept and the JVM offered (log=info).
#
# Usage: bench/attribution.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# With MINIMAL_INTERVAL2 (20m; empty: off) the minimal agent also runs at that interval, and
# its cost is read as fixed + per walk from the two: part of the sampling hook is paid on
# every slow-path allocation whatever the interval (ThreadHeapSampler::check_for_sampling
# and the event collector: about half the floor agent's hook on AllocMix), so dividing by
# the stacks charges it to whoever keeps fewer, and heapsampler's count (the rate cap's
# 1,000 a second times the run's seconds) differs from the minimal agent's (the bytes over
# its interval) by as much as 17 % with the machine's speed. Each heapsampler
# configuration is then compared with the minimal agent walking as many stacks as it kept.
#
# The order of the configurations rotates from one round to the next.
# Knobs (environment): RUNS=3  ALLOCMIX_STEPS=48000000  MINIMAL_INTERVAL=8m  JAVA_HOME=<JDK>
#                      MINIMAL_INTERVAL2=20m  WORK=/tmp/heapsampler-bench  VARIANTS=""
# Needs perf (Debian: linux-perf) with permission to profile the processes it starts.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
JAVA_HOME=$(find_java_home) || exit 1
RUNS=${RUNS:-3}
ALLOCMIX_STEPS=${ALLOCMIX_STEPS:-48000000}
MINIMAL_INTERVAL=${MINIMAL_INTERVAL:-8m}
MINIMAL_INTERVAL2=${MINIMAL_INTERVAL2-20m}
WORK=${WORK:-/tmp/heapsampler-bench}
command -v perf >/dev/null || die "perf not found (Debian: apt-get install linux-perf)"
RUN_DIR=$WORK/attribution-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"
FLOOR=$WORK/floor_agent.so
build_floor_agent "$JAVA_HOME" "$FLOOR"
compile_workload "$JAVA_HOME" AllocMix "$WORK/classes"

HZ=999
RESULTS=$RUN_DIR/results.tsv
printf 'config\trun\thook_ms\tagent_ms\ttotal_ms\tprocess_ms\toffered\tkept\n' >"$RESULTS"

# One profiled run of AllocMix with agent option $2; appends its figures as config $1.
profile_run() {
    local config=$1 agentpath=$2 run=$3 data=$RUN_DIR/$1-$3.data
    perf record -q -F "$HZ" -g -o "$data" -- "$JAVA_HOME/bin/java" "$agentpath" \
        -Xms1g -Xmx1g -XX:+UseG1GC -cp "$WORK/classes" AllocMix "$ALLOCMIX_STEPS" \
        >"$RUN_DIR/$config-$run.out" 2>&1 || die "run $config $run failed (see $RUN_DIR)"
    local samples hook agent
    samples=$(perf report -i "$data" -q -g none --sort comm -F sample 2>/dev/null |
        awk '{ s += $1 } END { print s + 0 }')
    # "children% self% comm [.] symbol": the inclusive share of the sampling hook per thread
    hook=$(perf report -i "$data" --children -q -g none --sort comm,sym 2>/dev/null |
        awk '/notify_allocation_jvmti_sampler/ && $3 ~ /^allocmix-/ { sub("%", "", $1); s += $1 }
             END { print s + 0 }')
    agent=$(perf report -i "$data" -q -g none --sort comm -F overhead,comm 2>/dev/null |
        awk '$2 == "heapsampler" { sub("%", "", $1); s += $1 } END { print s + 0 }')
    # heapsampler's rate-cap line at log=info, "N samples offered, M kept"; the floor agent's
    # "floor_agent: N samples" (each offered and, walked, kept)
    local counts
    counts=$(awk '/rate cap: [0-9]+ samples offered, [0-9]+ kept/ { for (i = 1; i < NF; i++) {
            if ($(i + 1) == "samples" && $(i + 2) == "offered,") o = $i; if ($(i + 1) == "kept") k = $i } }
        /^floor_agent: [0-9]+ samples/ { o = $2; k = $2 }
        END { printf "%s\t%s", o, k }' "$RUN_DIR/$config-$run.out")
    awk -v c="$config" -v r="$run" -v n="$samples" -v h="$hook" -v a="$agent" -v hz="$HZ" -v oc="$counts" 'BEGIN {
        ms = 1000 / hz
        printf "%s\t%d\t%.1f\t%.1f\t%.1f\t%.0f\t%s\n", c, r, n * h / 100 * ms, n * a / 100 * ms,
            n * (h + a) / 100 * ms, n * ms, oc }' >>"$RESULTS"
    tail -1 "$RESULTS" >&2
    rm -f "$data"
}

note "JDK $(java_version "$JAVA_HOME"); AllocMix $ALLOCMIX_STEPS steps x 2 threads; $RUNS runs per configuration"
note "config run hook_ms agent_ms total_ms process_ms"
# The heapsampler configurations: the defaults, then each of VARIANTS.
HS_NAMES=(heapsampler)
HS_ARGS=("-agentpath:$AGENT=log=info,file=$RUN_DIR/heapsampler-%p.pb.gz")
for variant in ${VARIANTS:-}; do
    name=${variant%%=*} spec=${variant#*=}
    lib=${spec%%:*} options=
    [ "$lib" = "$spec" ] || options=${spec#*:}
    [ -n "$name" ] && [ "$name" != "$variant" ] && [ -f "$lib" ] ||
        die "VARIANTS: '$variant' is not NAME=LIBRARY[:OPTIONS] with an existing library"
    HS_NAMES+=("$name")
    HS_ARGS+=("-agentpath:$(readlink -f "$lib")=log=info,file=$RUN_DIR/$name-%p.pb.gz${options:+,$options}")
done
for name in "${HS_NAMES[@]}"; do note "heapsampler configuration $name"; done

# Every configuration of a round, in the order of the first round.
NAMES=(floor minimal)
ARGS=("-agentpath:$FLOOR=mode=nop,interval=512k" "-agentpath:$FLOOR=mode=weak,interval=$MINIMAL_INTERVAL")
if [ -n "$MINIMAL_INTERVAL2" ]; then
    NAMES+=(minimal2)
    ARGS+=("-agentpath:$FLOOR=mode=weak,interval=$MINIMAL_INTERVAL2")
fi
NAMES+=("${HS_NAMES[@]}")
ARGS+=("${HS_ARGS[@]}")
# Each round starts one configuration later than the one before: with a fixed order,
# heapsampler's hook read 2-12 % above that of the same hook in the configuration after it
# in three batches of 6-10 rounds (what runs before a run, or where it falls in the round,
# weighs on it); rotated, every configuration takes every place equally often when RUNS
# is a multiple of their number.
for run in $(seq 1 "$RUNS"); do
    for j in "${!NAMES[@]}"; do
        i=$(((j + run - 1) % ${#NAMES[@]}))
        profile_run "${NAMES[$i]}" "${ARGS[$i]}" "$run"
    done
done

awk -F'\t' 'NR > 1 {
        if (!($1 in n)) order[++nc] = $1
        n[$1]++; h[$1] += $3; a[$1] += $4; t[$1] += $5; p[$1] += $6; o[$1] += $7; k[$1] += $8
        if (!($1 in lo) || $5 < lo[$1]) lo[$1] = $5
        if (!($1 in hi) || $5 > hi[$1]) hi[$1] = $5
    }
    END {
        for (i = 1; i <= nc; i++) {
            c = order[i]
            printf "%-12s hook %7.1f ms  agent %6.1f ms  total %7.1f ms (%.1f-%.1f) = %.2f %% of the process (%.0f ms)",
                c, h[c] / n[c], a[c] / n[c], t[c] / n[c], lo[c], hi[c], 100 * t[c] / p[c], p[c] / n[c]
            if (k[c] > 0) printf "; %.0f stacks of %.0f offered a run", k[c] / n[c], o[c] / n[c]
            printf "\n"
        }
        if (n["floor"] && n["heapsampler"])
            printf "heapsampler / floor: hook %.2f, total %.2f (means over the runs)\n",
                h["heapsampler"] / h["floor"], t["heapsampler"] / t["floor"]
        if (n["floor"] && n["minimal"])
            printf "minimal / floor: hook %.2f, total %.2f\n", h["minimal"] / h["floor"], t["minimal"] / t["floor"]
        # per stack kept (walked): the minimal agent at MINIMAL_INTERVAL walks about as many as
        # heapsampler keeps, but not exactly; the cost per stack compares them at the same count
        for (i = 1; i <= nc && n["minimal"]; i++)
            if (order[i] != "floor" && order[i] !~ /^minimal/)
                printf "%s / minimal: total %.2f; per stack kept %.2f (%.1f us against %.1f us a walk)\n",
                    order[i], t[order[i]] / t["minimal"], (t[order[i]] / k[order[i]]) / (t["minimal"] / k["minimal"]),
                    1000 * t[order[i]] / k[order[i]], 1000 * t["minimal"] / k["minimal"]
        # at the same count: part of the hook is paid per slow-path allocation whatever the
        # interval, so dividing by the stacks charges it to whoever keeps fewer; the minimal
        # agent at two intervals gives its cost as fixed + per walk, read at each count kept
        if (!n["minimal2"] || k["minimal"] == k["minimal2"]) exit
        m1 = t["minimal"] / n["minimal"]; w1 = k["minimal"] / n["minimal"]
        per = (m1 - t["minimal2"] / n["minimal2"]) / (w1 - k["minimal2"] / n["minimal2"])
        printf "minimal agent: %.1f ms + %.2f us a walk (from its two intervals)\n", m1 - per * w1, 1000 * per
        for (i = 1; i <= nc; i++)
            if (order[i] != "floor" && order[i] !~ /^minimal/) {
                c = order[i]; same = m1 + per * (k[c] / n[c] - w1)
                printf "%s / minimal walking as many stacks (%.0f): %.2f (%.1f ms against %.1f ms)\n",
                    c, k[c] / n[c], (t[c] / n[c]) / same, t[c] / n[c], same
            }
    }' "$RESULTS"
echo "figures: $RESULTS"
