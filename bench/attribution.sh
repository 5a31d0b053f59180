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
# Prints each run, then per configuration the mean and min-max, the ratios of the means
# heapsampler / floor and minimal / floor for hook and total, and the minimal agent's stack
# walks per run.
#
# Usage: bench/attribution.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# Knobs (environment): RUNS=3  ALLOCMIX_STEPS=48000000  MINIMAL_INTERVAL=8m  JAVA_HOME=<JDK>
#                      WORK=/tmp/heapsampler-bench
# Needs perf (Debian: linux-perf) with permission to profile the processes it starts.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
JAVA_HOME=$(find_java_home) || exit 1
RUNS=${RUNS:-3}
ALLOCMIX_STEPS=${ALLOCMIX_STEPS:-48000000}
MINIMAL_INTERVAL=${MINIMAL_INTERVAL:-8m}
WORK=${WORK:-/tmp/heapsampler-bench}
command -v perf >/dev/null || die "perf not found (Debian: apt-get install linux-perf)"
RUN_DIR=$WORK/attribution-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"
FLOOR=$WORK/floor_agent.so
build_floor_agent "$JAVA_HOME" "$FLOOR"
compile_workload "$JAVA_HOME" AllocMix "$WORK/classes"

HZ=999
RESULTS=$RUN_DIR/results.tsv
printf 'config\trun\thook_ms\tagent_ms\ttotal_ms\tprocess_ms\n' >"$RESULTS"

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
    awk -v c="$config" -v r="$run" -v n="$samples" -v h="$hook" -v a="$agent" -v hz="$HZ" 'BEGIN {
        ms = 1000 / hz
        printf "%s\t%d\t%.1f\t%.1f\t%.1f\t%.0f\n", c, r, n * h / 100 * ms, n * a / 100 * ms,
            n * (h + a) / 100 * ms, n * ms }' >>"$RESULTS"
    tail -1 "$RESULTS" >&2
    rm -f "$data"
}

note "JDK $(java_version "$JAVA_HOME"); AllocMix $ALLOCMIX_STEPS steps x 2 threads; $RUNS runs per configuration"
note "config run hook_ms agent_ms total_ms process_ms"
for run in $(seq 1 "$RUNS"); do
    profile_run floor "-agentpath:$FLOOR=mode=nop,interval=512k" "$run"
    profile_run minimal "-agentpath:$FLOOR=mode=weak,interval=$MINIMAL_INTERVAL" "$run"
    profile_run heapsampler "-agentpath:$AGENT" "$run"
done

awk -F'\t' 'NR > 1 {
        n[$1]++; h[$1] += $3; a[$1] += $4; t[$1] += $5; p[$1] += $6
        if (!($1 in lo) || $5 < lo[$1]) lo[$1] = $5
        if (!($1 in hi) || $5 > hi[$1]) hi[$1] = $5
    }
    END {
        for (c in n)
            printf "%-12s hook %7.1f ms  agent %6.1f ms  total %7.1f ms (%.1f-%.1f) = %.2f %% of the process (%.0f ms)\n",
                c, h[c] / n[c], a[c] / n[c], t[c] / n[c], lo[c], hi[c], 100 * t[c] / p[c], p[c] / n[c]
        if (n["floor"] && n["heapsampler"])
            printf "heapsampler / floor: hook %.2f, total %.2f (means over the runs)\n",
                h["heapsampler"] / h["floor"], t["heapsampler"] / t["floor"]
        if (n["floor"] && n["minimal"])
            printf "minimal / floor: hook %.2f, total %.2f; heapsampler / minimal: total %.2f\n",
                h["minimal"] / h["floor"], t["minimal"] / t["floor"], t["heapsampler"] / t["minimal"]
    }' "$RESULTS"
# The minimal agent prints its sample count at exit: one stack walk each.
cat "$RUN_DIR"/minimal-*.out 2>/dev/null |
    awk '/^floor_agent: [0-9]+ samples/ { s += $2; n++ }
         END { if (n) printf "minimal agent: %.0f stack walks per run (mean of %d)\n", s / n, n }'
echo "figures: $RESULTS"
