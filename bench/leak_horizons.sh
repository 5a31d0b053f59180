#!/usr/bin/env bash
# leak_horizons.sh: is a fast leak named within 40 s whatever the spacing of G1's markings?
#
# Runs jtreg/leak/RegistryLeak.java (a static HashMap registry growing LEAK bytes/s of 4,000-byte
# arrays, a steady 40 MB set replacing 250 entries a second, GARBAGE MB/s of short-lived
# arrays; the jtreg test BurstMarkingsTest runs it too) for SECONDS_RUN under the agent with
# the options of issue 25's report
# (interval=64k, dump_period=10s, log=info to watch the suspect lines), RUNS times in each
# marking shape of SHAPES. 800 MB/s of garbage makes the JVM offer about 13,000 samples a
# second, of which the rate cap keeps 1,000: the leak's samples weigh 13 times more, and a
# few seconds of it are within sampling noise (the regime where issue 25 saw it unnamed).
# Shapes:
#   back-to-back  G1 cycles one after another from the first seconds on (a marking threshold
#                 of 5 % of a 1 GB heap, adaptive IHOP off, a 32 MB young generation: several
#                 GCs a second);
#   late          no marking for about 20 s, then back to back (the same with a 17 % threshold:
#                 the old generation reaches it at about 20 s and stays above it);
#   default       G1's own choices on -Xms1g -Xmx1g.
# Each agent line is timestamped as it arrives. Per run it prints: the markings (G1's
# concurrent cycles in the GC log: the first one's start, how many), when
# RegistryLeak.register was first named (seconds after the JVM started), how many dumps from
# then on named it, the line, and whether the steady set or the garbage was ever named
# (target: never). Last, per shape,
# how many runs named the leak within DEADLINE seconds.
# Target (issue 25): named within 40 s in every run of both shapes, the steady set never.
#
# Usage: bench/leak_horizons.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# Knobs (environment): RUNS=5  SHAPES="back-to-back late"  SECONDS_RUN=40  DEADLINE=40
#        LEAK=5500000  GARBAGE=800  AGENT_OPTS="interval=64k,dump_period=10s"
#        JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
RUNS=${RUNS:-5}
SHAPES=${SHAPES:-back-to-back late}
SECONDS_RUN=${SECONDS_RUN:-40}
DEADLINE=${DEADLINE:-40}
LEAK=${LEAK:-5500000}
GARBAGE=${GARBAGE:-800}
AGENT_OPTS=${AGENT_OPTS:-interval=64k,dump_period=10s}
WORK=${WORK:-/tmp/heapsampler-bench}
JAVA_HOME=$(find_java_home) || exit 1
RUN_DIR=$WORK/leak_horizons-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
compile_workload "$JAVA_HOME" jtreg/leak/RegistryLeak.java "$RUN_DIR/classes"

# The JVM flags of a marking shape.
shape_flags() {
    case "$1" in
    back-to-back) echo "-Xms1g -Xmx1g -Xmn32m -XX:+UseG1GC -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=5" ;;
    late) echo "-Xms1g -Xmx1g -Xmn32m -XX:+UseG1GC -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=17" ;;
    default) echo "-Xms1g -Xmx1g -XX:+UseG1GC" ;;
    *) die "unknown shape: $1 (back-to-back, late, default)" ;;
    esac
}

# "first at 19.0 s, 28 cycles" from a -Xlog:gc file.
markings_of() {
    awk '/Pause Young \(Concurrent Start\)/ { n++; if (n == 1) { t = $1; gsub(/[^0-9.]/, "", t) } }
        END { if (n) printf "first at %.1f s, %d cycles", t, n; else printf "none" }' "$1"
}

# "4 of 4 dumps": of the profiles (periodic and exit, not the peak) written from second $2 on,
# how many named the leak.
named_from() {
    awk -F'\t' -v from="$2" '$1 + 0 < from + 0 { next }
        $2 ~ /suspect: RegistryLeak.register/ { named++ }
        $2 ~ /wrote .*leak(-[0-9]+)?\.pb\.gz/ { dumps++ }
        END { printf "%d of %d dumps", named, dumps }' "$1"
}

note "JDK $(java_version "$JAVA_HOME"); $RUNS runs of $SECONDS_RUN s per shape ($SHAPES); leak $LEAK B/s, steady set 40 MB replacing 250 entries/s, garbage $GARBAGE MB/s; agent $AGENT_OPTS"
declare -A named_in_time
for shape in $SHAPES; do
    flags=$(shape_flags "$shape")
    named_in_time[$shape]=0
    echo "== $shape: $flags"
    for run in $(seq 1 "$RUNS"); do
        dir=$RUN_DIR/$shape-$run
        mkdir -p "$dir"
        start=$EPOCHREALTIME
        # shellcheck disable=SC2086 # flags is a list of flags
        "$JAVA_HOME/bin/java" $flags "-Xlog:gc:file=$dir/gc.log:uptime" -cp "$RUN_DIR/classes" \
            "-agentpath:$AGENT=$AGENT_OPTS,log=info,keep=2,file=$dir/leak.pb.gz" \
            RegistryLeak "$SECONDS_RUN" 0 "$LEAK" "$GARBAGE" 2>&1 >"$dir/stdout" |
            timestamp_lines "$start" >"$dir/agent.log"
        first=$(first_suspect "$dir/agent.log" RegistryLeak.register)
        steady=$(suspect_lines "$dir/agent.log" RegistryLeak.steadyPut)
        garbage=$(suspect_lines "$dir/agent.log" RegistryLeak.garbage)
        if [ -n "$first" ]; then
            when=$(cut -f1 <<<"$first")
            echo "run $run: markings $(markings_of "$dir/gc.log"); leak first named at $when s," \
                "then in $(named_from "$dir/agent.log" "$when")"
            echo "  $(cut -f2 <<<"$first" | sed 's/^heapsampler: //')"
            awk -v w="$when" -v d="$DEADLINE" 'BEGIN { exit !(w <= d) }' &&
                named_in_time[$shape]=$((named_in_time[$shape] + 1))
        else
            echo "run $run: markings $(markings_of "$dir/gc.log"); leak never named"
        fi
        echo "  suspect lines naming the steady set: $steady; the garbage: $garbage (target: 0)"
        grep -q "RegistryLeak done" "$dir/stdout" || echo "  warning: the workload did not finish (see $dir)"
    done
done
for shape in $SHAPES; do
    echo "$shape: leak named within $DEADLINE s in ${named_in_time[$shape]} of $RUNS runs"
done
echo "logs: $RUN_DIR"
