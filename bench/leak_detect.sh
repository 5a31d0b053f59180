#!/usr/bin/env bash
# leak_detect.sh: how soon does heapsampler name a leak, at its default sampling options, and
# does it ever name a steady cache?
#
# Runs bench/LeakDetect.java (a leak of LEAK bytes/s of 3,000-byte arrays, a CACHE_MB FIFO cache
# of 10 KB entries replacing CACHE_RATE of them a second, GARBAGE MB/s of short-lived arrays) for
# SECONDS under the agent at its default sampling options (rate=1000/s, track=65536, interval=
# not given: the JVM's interval follows the budget from 512k),
# with only what it takes to watch: log=info (suspect lines are logged at info) and
# dump_period=DUMP_PERIOD (a profile, hence a suspect report, that often; keep=2). Each
# agent line is timestamped as it arrives. Prints: when LeakDetect.leakHere was first named
# (seconds after the JVM started) and the line; how many suspect lines named cachePut or
# garbage (target: none); the complete markings the last profile saw.
# Targets: the leak of 300 KB/s named within 60 s, 100 KB/s within 3 minutes, the cache never
# (issue 25: JDK 17, -Xmx1g, the defaults, an 80 MB cache: CACHE_MB=80).
#
# Usage: bench/leak_detect.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# Knobs (environment): SECONDS_RUN=120  LEAK=300000  CACHE_MB=100  CACHE_RATE=2000  GARBAGE=200  DUMP_PERIOD=10s
#        HEAP_OPTS="-Xmx1g -XX:+UseG1GC"  JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
SECONDS_RUN=${SECONDS_RUN:-120}
LEAK=${LEAK:-300000}
CACHE_MB=${CACHE_MB:-100}
CACHE_RATE=${CACHE_RATE:-2000}
GARBAGE=${GARBAGE:-200}
DUMP_PERIOD=${DUMP_PERIOD:-10s}
HEAP_OPTS=${HEAP_OPTS:--Xmx1g -XX:+UseG1GC}
WORK=${WORK:-/tmp/heapsampler-bench}
JAVA_HOME=$(find_java_home) || exit 1
RUN_DIR=$WORK/leak_detect-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
compile_workload "$JAVA_HOME" LeakDetect "$RUN_DIR/classes"

note "JDK $(java_version "$JAVA_HOME"); $SECONDS_RUN s; leak $LEAK B/s, cache $CACHE_MB MB replacing $CACHE_RATE entries/s, garbage $GARBAGE MB/s; $HEAP_OPTS"
LOG=$RUN_DIR/agent.log
start=$EPOCHREALTIME
# shellcheck disable=SC2086 # HEAP_OPTS is a list of flags
"$JAVA_HOME/bin/java" $HEAP_OPTS -cp "$RUN_DIR/classes" \
    "-agentpath:$AGENT=log=info,dump_period=$DUMP_PERIOD,keep=2,file=$RUN_DIR/leak.pb.gz" \
    LeakDetect "$SECONDS_RUN" "$LEAK" "$CACHE_RATE" "$GARBAGE" $((CACHE_MB * 100)) 2>&1 >"$RUN_DIR/stdout" |
    timestamp_lines "$start" >"$LOG"

first=$(first_suspect "$LOG" LeakDetect.leakHere)
cache=$(suspect_lines "$LOG" LeakDetect.cachePut)
garbage=$(suspect_lines "$LOG" LeakDetect.garbage)
markings=$(go tool pprof -raw "$RUN_DIR/leak.pb.gz" 2>/dev/null | grep -o '[0-9]* markings seen' | head -1)
if [ -n "$first" ]; then
    echo "leak ($LEAK B/s) first named $(cut -f1 <<<"$first") s after the JVM started:"
    echo "  $(cut -f2 <<<"$first")"
else
    echo "leak ($LEAK B/s) never named"
fi
echo "suspect lines naming the cache: $cache; naming the garbage: $garbage (target: 0)"
echo "complete markings seen by the exit profile: ${markings:-unknown}"
grep -h 'rate cap: interval\|effective rate' "$LOG" | tail -2 | cut -f2
grep -q "LeakDetect done" "$RUN_DIR/stdout" || echo "warning: the workload did not finish (see $RUN_DIR)"
echo "log: $LOG"
