#!/usr/bin/env bash
# class_flood.sh: what a program that keeps defining and unloading classes pays for
# heapsampler (issue 9: it used to pay 40x once the class table filled), and (issue 25)
# whether the agent's memory stays flat while it does.
#
# Runs jtreg/months/ClassFlood.java (200 class loaders x 1,000 classes, each class's arrays
# allocated from one site, the loaders dropped and unloaded) without an agent and with
# heapsampler at interval=1k, in two modes: "same" (every loader defines Gen0..Gen999, like a
# script engine regenerating its classes) and "unique" (a new name per class, like proxies).
# Mode "churn" runs jtreg/months/ClassChurn.java instead: CHURN_ROUNDS rounds of a hidden
# class (Lookup.defineHiddenClass) and a class of a fresh loader, each allocating from its
# own methods, a ring of 50 of their objects retained, at CHURN_OPTIONS (dense: every sample
# kept); its heapsampler runs write a profile every 5 s, and the script prints, per round and
# time, the process RSS (ClassChurn's own checkpoints, with and without the agent), the
# agent's arenas and method table from each periodic profile's comments, and the exit
# profile's nameless frames and the suspects named.
# ROUNDS rounds per JDK; each round runs every configuration once, order rotated by one per
# round; the CPU ratio (user+sys of the JVM's process tree) is taken within a round. Prints
# per JDK and mode the median (min-max) of CPU seconds and of the ratio. Target: ratio < 2.
#
# Usage: flock /work/coord/bench.lock bench/class_flood.sh [path/to/libheapsampler.so]
# Knobs (environment): ROUNDS=5  BATCHES=200  INTERVAL=1k  MODES="same unique"
#        CHURN_ROUNDS=120000  CHURN_OPTIONS=interval=8k,rate=0,log=info  (MODES=churn for the churn)
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
CHURN_ROUNDS=${CHURN_ROUNDS:-120000}
CHURN_OPTIONS=${CHURN_OPTIONS:-interval=8k,rate=0,log=info}
WORK=${WORK:-/tmp/heapsampler-bench}
mkdir -p "$WORK"
if [ -z "${JDKS:-}" ]; then
    for home in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
        [ -x "$home/bin/java" ] && JDKS="${JDKS:-}${JDKS:+ }$home"
    done
fi
RESULTS=$(results_file class_flood) || exit 1
MEMORY=${RESULTS%.tsv}-memory.tsv

# The memory of one churn run: RSS checkpoints ("rss-kb ROUND KB" on stdout) and, with the
# agent, each periodic profile's arenas and method table, then the exit profile's nameless
# frames and the suspects named (log=info) (profiles read with strings: protobuf strings are
# printable runs, maybe with a length byte before them).
churn_memory() {
    local version=$1 round=$2 kind=$3 out=$4 err=$5 dir=$6 f n
    awk -v v="$version" -v r="$round" -v k="$kind" '/^rss-kb / { printf "%s\t%s\t%s\trss\tround %s\t%s kB\n", v, r, k, $2, $3 }' \
        "$out" >>"$MEMORY"
    [ "$kind" = hs ] || return 0
    for ((n = 1; ; n++)); do
        f=$dir/churn-$n.pb.gz
        [ -f "$f" ] || break
        zcat "$f" | strings | awk -v v="$version" -v r="$round" -v n="$n" '
            match($0, /arenas: [0-9]+ bytes of names, [0-9]+ bytes of stack frames/) {
                split(substr($0, RSTART, RLENGTH), w, " "); a = w[2] " B names, " w[6] " B frames" }
            match($0, /methods: [0-9]+ resident \(of loaded classes\), [0-9]+ slots/) {
                split(substr($0, RSTART, RLENGTH), w, " "); m = w[2] " methods resident, " w[7] " reclaimed" }
            END { printf "%s\t%s\ths\tagent\tprofile %d (%d s)\t%s; %s\n", v, r, n, 5 * n, a, m }' >>"$MEMORY"
    done
    local nameless
    # a frame's or class's name is a string of its own (a length byte may precede it);
    # the comments that name these pseudo-frames are longer strings
    nameless=$(zcat "$dir/churn.pb.gz" | strings | grep -oE '^.?\[(unknown|method table full|method not resolved|stack table full|class table full)\]$' | sort -u | tr '\n' ' ')
    printf '%s\t%s\ths\texit\tprofile\tnameless frames: %s; suspects named: %s\n' "$version" "$round" \
        "${nameless:-none}" "$(grep -c 'suspect: ' "$err")" >>"$MEMORY"
    grep 'suspect: ' "$err" | sed "s/^/$version\t$round\ths\tsuspect\t\t/" >>"$MEMORY"
    rm -f "$dir"/churn*.pb.gz
}

measure() {
    local jdk version classes kinds=(none hs) round i k mode
    for jdk in $JDKS; do
        version=$(java_version "$jdk")
        classes=$WORK/class-flood-classes-$version
        mkdir -p "$classes"
        "$jdk/bin/javac" -d "$classes" "$REPO_DIR/jtreg/months/ClassFlood.java" \
            "$REPO_DIR/jtreg/months/ClassChurn.java" || die "javac failed"
        for mode in $MODES; do
            for ((round = 1; round <= ROUNDS; round++)); do
                for ((i = 0; i < ${#kinds[@]}; i++)); do
                    k=${kinds[$(((i + round) % ${#kinds[@]}))]}
                    local agent_opt=() workload=(ClassFlood "$BATCHES" 1000 8 "$mode")
                    [ "$k" = hs ] && agent_opt=("-agentpath:$AGENT=interval=$INTERVAL,file=$WORK/class-flood.pb.gz")
                    if [ "$mode" = churn ]; then
                        workload=(ClassChurn "$CHURN_ROUNDS" 12)
                        [ "$k" = hs ] && agent_opt=("-agentpath:$AGENT=$CHURN_OPTIONS,file=$WORK/churn.pb.gz,dump_period=5s")
                    fi
                    RUN_OUT=$WORK/class-flood.out RUN_ERR=$WORK/class-flood.err
                    run_measured "$jdk/bin/java" "${agent_opt[@]}" -Xmx256m -Xms256m -cp "$classes" \
                        "${workload[@]}"
                    [ "$RUN_RC" = 0 ] || die "${workload[0]} failed ($k, $mode): $(cat "$RUN_ERR")"
                    [ "$mode" = churn ] && churn_memory "$version" "$round" "$k" "$RUN_OUT" "$RUN_ERR" "$WORK"
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
if [ -s "$MEMORY" ]; then
    echo "memory over the churn (JDK, round, agent, what, when, figure): $MEMORY"
    cat "$MEMORY"
fi
