#!/usr/bin/env bash
# class_flood.sh: what a program that keeps defining and unloading classes pays for
# heapsampler (issue 9: it used to pay 40x once the class table filled).
#
# Runs jtreg/months/ClassFlood.java (200 class loaders x 1,000 classes, each class's arrays
# allocated from one site, the loaders dropped and unloaded) without an agent and with
# heapsampler at interval=1k, in two modes: "same" (every loader defines Gen0..Gen999, like a
# script engine regenerating its classes) and "unique" (a new name per class, like proxies).
# ROUNDS rounds per JDK; each round runs every configuration once, order rotated by one per
# round; the CPU ratio (user+sys of the JVM's process tree) is taken within a round. Prints
# per JDK and mode the median (min-max) of CPU seconds and of the ratio. Target: ratio < 2.
#
# Usage: flock /work/coord/bench.lock bench/class_flood.sh [path/to/libheapsampler.so]
# Knobs (environment): ROUNDS=5  BATCHES=200  INTERVAL=1k  MODES="same unique"
#        JDKS="/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64" (those present)
#        WORK=/tmp/heapsampler-bench  REPORT=<an earlier run's results .tsv>: print it again
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
ROUNDS=${ROUNDS:-5}
BATCHES=${BATCHES:-200}
INTERVAL=${INTERVAL:-1k}
MODES=${MODES:-same unique}
WORK=${WORK:-/tmp/heapsampler-bench}
mkdir -p "$WORK"
if [ -z "${JDKS:-}" ]; then
    for home in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
        [ -x "$home/bin/java" ] && JDKS="${JDKS:-}${JDKS:+ }$home"
    done
fi
RESULTS=$(results_file class_flood) || exit 1

measure() {
    local jdk version classes kinds=(none hs) round i k mode
    for jdk in $JDKS; do
        version=$(java_version "$jdk")
        classes=$WORK/class-flood-classes-$version
        mkdir -p "$classes"
        "$jdk/bin/javac" -d "$classes" "$REPO_DIR/jtreg/months/ClassFlood.java" || die "javac failed"
        for mode in $MODES; do
            for ((round = 1; round <= ROUNDS; round++)); do
                for ((i = 0; i < ${#kinds[@]}; i++)); do
                    k=${kinds[$(((i + round) % ${#kinds[@]}))]}
                    local agent_opt=()
                    [ "$k" = hs ] && agent_opt=("-agentpath:$AGENT=interval=$INTERVAL,file=$WORK/class-flood.pb.gz")
                    RUN_OUT=$WORK/class-flood.out RUN_ERR=$WORK/class-flood.err
                    run_measured "$jdk/bin/java" "${agent_opt[@]}" -Xmx256m -Xms256m -cp "$classes" \
                        ClassFlood "$BATCHES" 1000 8 "$mode"
                    [ "$RUN_RC" = 0 ] || die "ClassFlood failed ($k, $mode): $(cat "$RUN_ERR")"
                    printf '%s\t%s\t%d\t%s\t%s\t%s\n' "$version" "$mode" "$round" "$k" "$RUN_CPU" \
                        "$RUN_WALL" >>"$RESULTS"
                    note "$version $mode round $round $k: cpu $RUN_CPU s, wall $RUN_WALL s"
                done
            done
        done
    done
}

report() {
    echo "results: $RESULTS"
    echo "| JDK | mode | CPU s, no agent | CPU s, heapsampler | CPU ratio |"
    echo "|---|---|---|---|---|"
    awk -F'\t' "$AWK_STATS"'
        { key = $1 "\t" $2; cpu[key, $3, $4] = $5; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
          if ($3 > rounds[key]) rounds[key] = $3 }
        END {
            for (o = 1; o <= n; o++) {
                key = order[o]; a = b = r = 0
                for (i = 1; i <= rounds[key]; i++) {
                    if ((key, i, "none") in cpu && (key, i, "hs") in cpu) {
                        none[++a] = cpu[key, i, "none"]; hs[++b] = cpu[key, i, "hs"]
                        ratio[++r] = cpu[key, i, "hs"] / cpu[key, i, "none"]
                    }
                }
                split(key, parts, "\t")
                printf "| %s | %s | %s | %s | %s |\n", parts[1], parts[2], summary(none, a, "%.2f"),
                       summary(hs, b, "%.2f"), summary(ratio, r, "%.3f")
            }
        }' "$RESULTS"
}

[ -n "${REPORT:-}" ] || measure
report
