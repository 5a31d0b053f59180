#!/usr/bin/env bash
# kept_rate.sh: does heapsampler keep about its rate at the default options, whatever the
# program's allocation rate? The budget is the rate, not the interval (issue 25): the JVM's
# interval is lowered for a program that offers fewer samples than the rate at the default
# 512k and raised for one that offers many more.
#
# Runs jtreg/alloc/RateBandWorkload (one thread allocating byte[1000], paced so that the JVM
# offers OFFERS samples a second at 512k) for SECONDS_RUN s at each of OFFERS_LIST, under
# the agent at its default options plus dump_period=5s, and reads from the periodic
# profiles' comments the samples kept between the dump at about 10 s and the last one
# (after the interval has settled), and the exit profile's line on the interval. Prints one
# line per offer rate: offers at 512k, kept a second in that window, the interval and why.
# Target: 900-1,100 kept a second from 100 to 50,000 offers a second at 512k (this machine's
# one thread reaches a few thousand; the simulation in test/sampling/test_throttle.c covers the rest).
#
# Usage: bench/kept_rate.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# Knobs (environment): OFFERS_LIST="100 300 1000 3000"  SECONDS_RUN=30  HEAP=512m  JAVA_HOME=<JDK>
#                      WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
JAVA_HOME=$(find_java_home) || exit 1
OFFERS_LIST=${OFFERS_LIST:-100 300 1000 3000}
SECONDS_RUN=${SECONDS_RUN:-30}
HEAP=${HEAP:-512m} # the workload retains one array in RETAIN_EVERY: 10,000 offers a second need 2g
WORK=${WORK:-/tmp/heapsampler-bench}
command -v go >/dev/null || die "go tool pprof is needed (golang-go)"
RUN_DIR=$WORK/kept_rate-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR/classes"
"$JAVA_HOME/bin/javac" -d "$RUN_DIR/classes" "$REPO_DIR/jtreg/alloc/RateBandWorkload.java" ||
    die "compiling RateBandWorkload failed"

# comments FILE: the profile's comments.
comments() { go tool pprof -raw "$1" 2>/dev/null | grep '^Comment: '; }

# kept_and_seconds FILE: "kept seconds" from the rate cap's comment line.
kept_and_seconds() {
    comments "$1" | sed -n 's/.*samples offered, \([0-9]*\) kept (.*over \([0-9.]*\) s;.*/\1 \2/p' | head -1
}

note "JDK $(java_version "$JAVA_HOME"); $SECONDS_RUN s per run; offers at 512k: $OFFERS_LIST"
printf '%-14s %-14s %s\n' "offers at 512k" "kept/s" "interval"
for offers in $OFFERS_LIST; do
    dir=$RUN_DIR/offers-$offers
    mkdir -p "$dir"
    "$JAVA_HOME/bin/java" "-Xmx$HEAP" -cp "$RUN_DIR/classes" \
        "-agentpath:$AGENT=dump_period=5s,file=$dir/p.pb.gz" \
        RateBandWorkload "$offers" "$SECONDS_RUN" 524288 >"$dir/stdout" 2>"$dir/stderr" ||
        die "the run at $offers offers a second failed (see $dir)"
    last=$(find "$dir" -name 'p-*.pb.gz' | sed 's/.*p-\([0-9]*\)\.pb\.gz/\1/' | sort -n | tail -1)
    [ -n "$last" ] && [ "$last" -ge 3 ] || die "too few periodic profiles in $dir"
    read -r k1 s1 <<<"$(kept_and_seconds "$dir/p-2.pb.gz")"
    read -r k2 s2 <<<"$(kept_and_seconds "$dir/p-$last.pb.gz")"
    why=$(comments "$dir/p.pb.gz" | grep -o 'rate cap: interval .*' | head -1)
    printf '%-14s %-14s %s\n' "$offers" \
        "$(awk -v a="$k1" -v b="$k2" -v x="$s1" -v y="$s2" 'BEGIN { printf "%.1f", (b - a) / (y - x) }')" \
        "${why#rate cap: }"
done
echo "profiles: $RUN_DIR"
