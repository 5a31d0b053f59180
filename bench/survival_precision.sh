#!/usr/bin/env bash
# survival_precision.sh: how much more precise is the in-use estimate of a leaking site with
# survival factors (survival=true, the default) than without (survival=false), at the same
# kept rate? Runs bench/LeakDetect.java (a leak of LEAK bytes/s of 3,000-byte arrays, a
# 100 MB FIFO cache replacing CACHE_RATE entries a second, GARBAGE MB/s of short-lived
# arrays) RUNS times with each setting, alternating, each SECONDS_RUN s at INTERVAL under the
# default rate cap, and reads the exit profile's figures of LeakDetect.leakHere (go tool
# pprof): its alloc_space (every leaked array stays live, so this is the sampling error of
# its live set alone) and its inuse_space (as of the last GC: also off by what was leaked
# since, which depends on when that GC came). Prints per setting: the runs' figures, their
# mean, their standard deviation (the empirical standard error of one run's estimate) and
# the kept samples per second; then the ratio of the standard deviations (without / with).
#
# Usage: bench/survival_precision.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# INTERVAL=default runs without interval= (the JVM's interval then follows the budget).
# Knobs (environment): RUNS=6  SECONDS_RUN=20  INTERVAL=64k  LEAK=300000  CACHE_RATE=2000
#        GARBAGE=200  HEAP_OPTS="-Xmx1g -XX:+UseG1GC"  JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
RUNS=${RUNS:-6}
SECONDS_RUN=${SECONDS_RUN:-20}
INTERVAL=${INTERVAL:-64k}
INTERVAL_OPTION=interval=$INTERVAL,
[ "$INTERVAL" = default ] && INTERVAL_OPTION=
LEAK=${LEAK:-300000}
CACHE_RATE=${CACHE_RATE:-2000}
GARBAGE=${GARBAGE:-200}
HEAP_OPTS=${HEAP_OPTS:--Xmx1g -XX:+UseG1GC}
WORK=${WORK:-/tmp/heapsampler-bench}
JAVA_HOME=$(find_java_home) || exit 1
command -v go >/dev/null || die "go tool pprof is needed (golang-go)"
RUN_DIR=$WORK/survival_precision-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
compile_workload "$JAVA_HOME" LeakDetect "$RUN_DIR/classes"
note "JDK $(java_version "$JAVA_HOME"); $RUNS runs x 2 settings x $SECONDS_RUN s at interval=$INTERVAL, rate=1000/s; leak $LEAK B/s, cache 100 MB replacing $CACHE_RATE entries/s, garbage $GARBAGE MB/s; $HEAP_OPTS"

# figure FILE INDEX SITE: the site's sample_index INDEX in bytes in the profile.
figure() {
    go tool pprof -top -sample_index="$2" -unit=B -focus="$3" "$1" 2>/dev/null |
        sed -n 's/^Showing nodes accounting for \([0-9.]*\)B*,.*/\1/p' | head -1
}

# kept_rate FILE: the rate cap's effective rate (kept samples per second) in the profile.
kept_rate() {
    go tool pprof -top "$1" 2>/dev/null | sed -n 's/.*effective rate \([0-9.]*\) kept\/s.*/\1/p' | head -1
}

for run in $(seq 1 "$RUNS"); do
    for setting in true false; do
        out=$RUN_DIR/run$run-$setting.pb.gz
        # shellcheck disable=SC2086 # HEAP_OPTS is a list of flags
        "$JAVA_HOME/bin/java" $HEAP_OPTS -cp "$RUN_DIR/classes" \
            "-agentpath:$AGENT=${INTERVAL_OPTION}survival=$setting,file=$out" \
            LeakDetect "$SECONDS_RUN" "$LEAK" "$CACHE_RATE" "$GARBAGE" >"$RUN_DIR/stdout-$run-$setting" 2>&1 ||
            die "run $run (survival=$setting) failed: $RUN_DIR/stdout-$run-$setting"
        printf '%s\t%s\t%s\t%s\n' "$setting" "$(figure "$out" alloc_space LeakDetect.leakHere)" \
            "$(figure "$out" inuse_space LeakDetect.leakHere)" "$(kept_rate "$out")" >>"$RUN_DIR/figures.tsv"
    done
done

truth=$(awk -v l="$LEAK" -v s="$SECONDS_RUN" 'BEGIN { printf "%.0f", int(l / 3000) * s * 3016 }')
awk -F'\t' -v truth="$truth" '
    { n[$1]++; sl[$1] += $2; sl2[$1] += $2 * $2; sc[$1] += $3; sc2[$1] += $3 * $3; sk[$1] += $4 }
    function sd(s, s2, k) { return k > 1 ? sqrt((s2 - s * s / k) / (k - 1)) : 0 }
    END {
        printf "leaked at exit: %.2f MB (in use as of the last GC: up to one GC interval less)\n", truth / 1e6
        for (i = 0; i < 2; i++) {
            s = i == 0 ? "true" : "false"; k = n[s]
            printf "survival=%s, %d runs: leakHere alloc_space mean %.3f MB, sd %.3f MB (%.1f %%); inuse_space mean %.3f MB, sd %.3f MB (%.1f %%); kept %.0f/s\n",
                s, k, sl[s] / k / 1e6, sd(sl[s], sl2[s], k) / 1e6, 100 * sd(sl[s], sl2[s], k) / (sl[s] / k),
                sc[s] / k / 1e6, sd(sc[s], sc2[s], k) / 1e6, 100 * sd(sc[s], sc2[s], k) / (sc[s] / k), sk[s] / k
        }
        a = sd(sl["true"], sl2["true"], n["true"]); b = sd(sl["false"], sl2["false"], n["false"])
        c = sd(sc["true"], sc2["true"], n["true"]); d = sd(sc["false"], sc2["false"], n["false"])
        if (a > 0 && c > 0) printf "standard deviation without / with survival factors: alloc_space %.2f, inuse_space %.2f\n", b / a, d / c
    }' "$RUN_DIR/figures.tsv"
echo "figures: $RUN_DIR/figures.tsv"
