#!/usr/bin/env bash
# leak_detect.sh: how soon does heapsampler name a leak, at its default sampling options, and
# does it ever name a steady cache?
#
# Runs bench/LeakDetect.java (a leak of LEAK bytes/s of 3,000-byte arrays, a 100 MB FIFO cache
# replacing CACHE_RATE 10 KB entries a second, GARBAGE MB/s of short-lived arrays) for SECONDS
# under the agent at its default sampling options (interval=512k, rate=1000/s, track=65536),
# with only what it takes to watch: log=info (suspect lines are logged at info) and
# dump_period=DUMP_PERIOD (a profile, hence a suspect report, that often; keep=2). Each
# agent line is timestamped as it arrives. Prints: when LeakDetect.leakHere was first named
# (seconds after the JVM started) and the line; how many suspect lines named cachePut or
# garbage (target: none); the complete markings the last profile saw.
# Target (issue 17): the leak of 300 KB/s named within 2 minutes; 100 KB/s within 10.
#
# Usage: bench/leak_detect.sh [path/to/libheapsampler.so]  (default <repo>/build/libheapsampler.so)
# Knobs (environment): SECONDS_RUN=120  LEAK=300000  CACHE_RATE=2000  GARBAGE=200  DUMP_PERIOD=10s
#        HEAP_OPTS="-Xmx1g -XX:+UseG1GC"  JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
SECONDS_RUN=${SECONDS_RUN:-120}
LEAK=${LEAK:-300000}
CACHE_RATE=${CACHE_RATE:-2000}
GARBAGE=${GARBAGE:-200}
DUMP_PERIOD=${DUMP_PERIOD:-10s}
HEAP_OPTS=${HEAP_OPTS:--Xmx1g -XX:+UseG1GC}
WORK=${WORK:-/tmp/heapsampler-bench}
JAVA_HOME=$(find_java_home) || exit 1
RUN_DIR=$WORK/leak_detect-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN_DIR"
compile_workload "$JAVA_HOME" LeakDetect "$RUN_DIR/classes"

note "JDK $(java_version "$JAVA_HOME"); $SECONDS_RUN s; leak $LEAK B/s, cache 100 MB replacing $CACHE_RATE entries/s, garbage $GARBAGE MB/s; $HEAP_OPTS"
LOG=$RUN_DIR/agent.log
start=$EPOCHREALTIME
# shellcheck disable=SC2086 # HEAP_OPTS is a list of flags
"$JAVA_HOME/bin/java" $HEAP_OPTS -cp "$RUN_DIR/classes" \
    "-agentpath:$AGENT=log=info,dump_period=$DUMP_PERIOD,keep=2,file=$RUN_DIR/leak.pb.gz" \
    LeakDetect "$SECONDS_RUN" "$LEAK" "$CACHE_RATE" "$GARBAGE" 2>&1 >"$RUN_DIR/stdout" |
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
grep -q "LeakDetect done" "$RUN_DIR/stdout" || echo "warning: the workload did not finish (see $RUN_DIR)"
echo "log: $LOG"
