#!/usr/bin/env bash
# gc_impact.sh: does heapsampler's live tracking change how the GC behaves?
#
# Runs bench/HumongousChurn.java (G1, -Xmx512m, 1 MiB regions: every byte[600_000] is a
# humongous object; some are retained in a rotating window, plus small-object churn) with
# -Xlog:gc to a file, under: no agent; the floor agent in mode weak (GetStackTrace plus one
# JNI weak global ref per sample, the least any weak-ref-based live tracking does); heapsampler
# live=false; heapsampler live=true. From each log: young+full GCs, all stop-the-world pauses
# and their total time, completed concurrent mark cycles, full GCs, evacuation failures
# ("To-space exhausted" on JDK 17, "Evacuation Failure" on later JDKs); and the run's CPU
# (user+sys of the process tree) and wall time.
#
# RUNS rounds per JDK; each round runs every configuration once, in an order rotated by one
# every round. Prints per configuration the median (min-max) of each figure, then per-round
# ratios (median, min-max) of GCs and pause total: live=true vs live=false, vs no agent, ...
# Target: live=true within 5 % of live=false and of no agent in GC count and pause total.
#
# Usage: bench/gc_impact.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so,
#        built with cmake if absent)
# Knobs (environment): RUNS=7  QUICK=1 (= RUNS=2)  INTERVAL=512k  STEPS=16000
#        JDKS="/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64" (those present)
#        KINDS="none weak hs-nolive hs-live"  HEAP_OPTS="-Xmx512m -XX:+UseG1GC -XX:G1HeapRegionSize=1m"
#        WORK=/tmp/heapsampler-bench  REPORT=<an earlier run's results .tsv>: print its tables again, measure nothing
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
RUNS=${RUNS:-7}
[ "${QUICK:-0}" = 1 ] && RUNS=2
INTERVAL=${INTERVAL:-512k}
STEPS=${STEPS:-16000}
KINDS=${KINDS:-none weak hs-nolive hs-live}
HEAP_OPTS=${HEAP_OPTS:--Xmx512m -XX:+UseG1GC -XX:G1HeapRegionSize=1m}
if [ -z "${JDKS:-}" ]; then
    for home in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
        [ -x "$home/bin/java" ] && JDKS="${JDKS:-}${JDKS:+ }$home"
    done
    [ -n "${JDKS:-}" ] || JDKS=$(find_java_home) || exit 1
fi
WORK=${WORK:-${TMPDIR:-/tmp}/heapsampler-bench}
RUN_DIR=$WORK/gc-run
mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"
read -r -a CONFIGS <<<"$KINDS"

# Sets AGENT_ARGS to the -agentpath option of a configuration for the current JDK.
set_agent_args() {
    AGENT_ARGS=()
    case "$1" in
    none) ;;
    nop | stack | weak) AGENT_ARGS=("-agentpath:$FLOOR=mode=$1,interval=$INTERVAL") ;;
    hs-nolive) AGENT_ARGS=("-agentpath:$AGENT=interval=$INTERVAL,live=false,file=$RUN_DIR/hs-%p.pb.gz") ;;
    hs-live) AGENT_ARGS=("-agentpath:$AGENT=interval=$INTERVAL,live=true,file=$RUN_DIR/hs-%p.pb.gz") ;;
    *) die "unknown configuration '$1' (KINDS takes none nop stack weak hs-nolive hs-live)" ;;
    esac
}

# Reads a -Xlog:gc file: prints "gcs pauses pause_ms marks fulls evac_failures".
parse_gc_log() {
    awk '
        / Pause / && /ms$/ {
            pauses++; ms = $NF; sub(/ms$/, "", ms); pause_ms += ms
            if (/ Pause Young/ || / Pause Full/) gcs++
            if (/ Pause Full/) fulls++
        }
        / Concurrent Mark Cycle [0-9.]+ms$/ { marks++ }
        /To-space exhausted|Evacuation Failure/ { failures++ }
        END { printf "%d %d %.1f %d %d %d\n", gcs, pauses, pause_ms, marks, fulls, failures }' "$1"
}

# Runs every round on every JDK, appending to $RESULTS.
measure() {
    local version round i config gcs pauses pause_ms marks fulls failures
    printf 'jdk\tround\tconfig\tgcs\tpauses\tpause_ms\tmarks\tfulls\tevac_failures\tcpu_s\twall_s\n' >"$RESULTS"
    note "agent: $AGENT; $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    note "$RUNS rounds x ${#CONFIGS[@]} configurations per JDK; raw results in $RESULTS"
    for JAVA_HOME in $JDKS; do
        version=$(java_version "$JAVA_HOME")
        FLOOR=$WORK/floor_agent-$version.so
        build_floor_agent "$JAVA_HOME" "$FLOOR"
        compile_workload "$JAVA_HOME" HumongousChurn "$WORK/classes-$version"
        for ((round = 0; round < RUNS; round++)); do
            for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
                config=${CONFIGS[(i + round) % ${#CONFIGS[@]}]}
                set_agent_args "$config"
                rm -f "$RUN_DIR"/hs-*.pb.gz "$RUN_DIR/gc.log"
                RUN_OUT=$RUN_DIR/out RUN_ERR=$RUN_DIR/err
                # shellcheck disable=SC2086 # HEAP_OPTS is a list of options
                run_measured "$JAVA_HOME/bin/java" "${AGENT_ARGS[@]}" $HEAP_OPTS -Xlog:gc:file="$RUN_DIR/gc.log" \
                    -cp "$WORK/classes-$version" HumongousChurn "$STEPS"
                if [ "$RUN_RC" != 0 ] || ! grep -q '^HumongousChurn checksum' "$RUN_OUT"; then
                    tail -20 "$RUN_ERR" >&2
                    die "JDK $version under $config failed (exit $RUN_RC)"
                fi
                case "$config" in hs-*)
                    ls "$RUN_DIR"/hs-*.pb.gz >/dev/null 2>&1 || die "JDK $version under $config wrote no profile"
                    ;;
                esac
                # via a file, not <(...): an asynchronous child could be reaped inside the next
                # run's measurement and add its CPU time there
                parse_gc_log "$RUN_DIR/gc.log" >"$RUN_DIR/gc.counts"
                read -r gcs pauses pause_ms marks fulls failures <"$RUN_DIR/gc.counts"
                printf '%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$version" "$round" "$config" "$gcs" "$pauses" \
                    "$pause_ms" "$marks" "$fulls" "$failures" "$RUN_CPU" "$RUN_WALL" >>"$RESULTS"
                note "JDK $version round $((round + 1))/$RUNS $config: $gcs GCs, $pauses pauses ${pause_ms} ms," \
                    "$marks mark cycles, $fulls full, $failures evac failures; cpu ${RUN_CPU}s wall ${RUN_WALL}s"
            done
        done
    done
}

RESULTS=$(results_file gc_impact) || exit 1
[ -n "${REPORT:-}" ] || measure # with REPORT=, only print the tables of an earlier run

# --- summary --------------------------------------------------------------------------------
summarize() {
    awk -F'\t' -v jdk="$1" -v configs="${CONFIGS[*]}" -v rounds="$RUNS" "$AWK_STATS"'
        function label(cfg) {
            if (cfg == "none") return "no agent"
            if (cfg == "hs-nolive") return "heapsampler live=false"
            if (cfg == "hs-live") return "heapsampler live=true"
            return "floor " cfg
        }
        # median (min-max) of column col over the rounds for configuration cfg
        function column(cfg, col, fmt,    r) {
            for (r = 0; r < rounds; r++) v[r + 1] = value[cfg, r, col]
            return summary(v, rounds, fmt)
        }
        # median (min-max) over the rounds of value(a)/value(b) in column col
        function ratio(a, b, col,    r, k) {
            k = 0
            for (r = 0; r < rounds; r++) if (value[b, r, col] > 0) v[++k] = value[a, r, col] / value[b, r, col]
            return k ? summary(v, k, "%.3f") : "n/a"
        }
        # "+12.3 % (met)": the median change of value(a)/value(b) in column col and its verdict
        function check(a, b, col, tolerance,    r, k) {
            k = 0
            for (r = 0; r < rounds; r++) if (value[b, r, col] > 0) v[++k] = value[a, r, col] / value[b, r, col]
            if (!k) return "n/a"
            return sprintf("%+.1f %% (%s)", 100 * (median(v, k) - 1), verdict(v, k, 1 - tolerance, 1 + tolerance))
        }
        NR > 1 && $1 == jdk { for (c = 4; c <= 11; c++) value[$3, $2, c] = $c; present[$3] = 1 }
        END {
            nc = split(configs, order, " ")
            printf "%-24s %-16s %-16s %-22s %-14s %-10s %-12s %-20s %s\n", "configuration", "GCs", "pauses",
                   "pause total ms", "mark cycles", "full GCs", "evac fails", "CPU s", "wall s"
            for (c = 1; c <= nc; c++)
                printf "%-24s %-16s %-16s %-22s %-14s %-10s %-12s %-20s %s\n", label(order[c]),
                       column(order[c], 4, "%d"), column(order[c], 5, "%d"), column(order[c], 6, "%.0f"),
                       column(order[c], 7, "%d"), column(order[c], 8, "%d"), column(order[c], 9, "%d"),
                       column(order[c], 10, "%.2f"), column(order[c], 11, "%.2f")
            print ""
            printf "%-50s %-24s %-24s %s\n", "ratio (median, min-max over rounds)", "GCs", "pause total", "CPU"
            np = 0
            if (present["hs-live"] && present["hs-nolive"]) { pa[++np] = "hs-live"; pb[np] = "hs-nolive" }
            if (present["none"]) for (c = 1; c <= nc; c++) if (order[c] != "none") { pa[++np] = order[c]; pb[np] = "none" }
            for (p = 1; p <= np; p++)
                printf "%-50s %-24s %-24s %s\n", label(pa[p]) " / " label(pb[p]), ratio(pa[p], pb[p], 4),
                       ratio(pa[p], pb[p], 6), ratio(pa[p], pb[p], 10)
            for (p = 1; p <= np; p++) if (pa[p] == "hs-live") {
                printf "target check (within 5 %%): %s / %s: GCs %s; pause total %s\n", label(pa[p]), label(pb[p]),
                       check(pa[p], pb[p], 4, 0.05), check(pa[p], pb[p], 6, 0.05)
            }
        }' "$RESULTS"
}

echo
echo "heapsampler GC impact: HumongousChurn $STEPS steps, $HEAP_OPTS, interval=$INTERVAL, $RUNS rounds, $(nproc) CPUs"
for JAVA_HOME in $JDKS; do
    echo
    echo "== JDK $(java_version "$JAVA_HOME") ($JAVA_HOME)"
    summarize "$(java_version "$JAVA_HOME")"
done
echo
echo "raw results: $RESULTS"
