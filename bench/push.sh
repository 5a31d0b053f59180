#!/usr/bin/env bash
# push.sh: what pushing to Grafana Pyroscope costs.
#
# 1. CPU: bench/AllocMix.java with the agent at its defaults, without push (A) and with
#    push= to a local receiver every $PUSH_PERIOD seconds (B; 15 s, Pyroscope's Java agent
#    uploads every 10 s). PAIRS rounds A B A B, each a fixed amount of work; prints the median
#    of CPU(B)/CPU(A) (user+sys of the JVM, lib.sh run_measured) with min-max, then wall.
#    The receiver (bench/PushSink.java, a JVM answering 204 to every POST) is not counted.
# 2. RSS with a full queue: bench/PushFill.java (large profiles: random call chains, rate=5000/s;
#    heap pre-touched, -Xms256m -Xmx256m, so that RSS differences are native) for FILL_SECONDS with
#    push_period=1s to a port nobody listens on, so every window stays queued until the
#    queue's bound (memory=/16 bytes; FILL_MEMORY=8m: 512 KiB) drops the oldest; prints VmRSS
#    and VmHWM near the end and the agent's exit summary, beside the same run without push=.
#
# Usage: bench/push.sh [path/to/libheapsampler.so]
# Knobs (environment): PAIRS=5  PUSH_PERIOD=15  ALLOCMIX_STEPS=24000000  FILL_SECONDS=200
#        FILL_MEMORY=8m  SKIP_CPU=0 (1: only the RSS part)  JAVA_HOME=<JDK>
#        WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

bench_setup "${1:-}" push
PAIRS=${PAIRS:-5}
PUSH_PERIOD=${PUSH_PERIOD:-15}
ALLOCMIX_STEPS=${ALLOCMIX_STEPS:-24000000}
FILL_SECONDS=${FILL_SECONDS:-200}
FILL_MEMORY=${FILL_MEMORY:-8m} # the queue holds memory=/16: 512 KiB, about 130 windows of PushFill
compile_workload "$JAVA_HOME" AllocMix "$WORK/classes"
compile_workload "$JAVA_HOME" PushFill "$WORK/classes"
compile_workload "$JAVA_HOME" PushSink "$WORK/classes"

free_port() { "$JAVA" -cp "$WORK/classes" PushSink free; }

# The receiver, in the background; sets RECEIVER_PID and RECEIVER_PORT.
start_receiver() {
    local n=0
    "$JAVA" -Xmx64m -cp "$WORK/classes" PushSink >"$RUN_DIR/sink.out" 2>&1 &
    RECEIVER_PID=$!
    RECEIVER_PORT=""
    while [ -z "$RECEIVER_PORT" ] && [ $n -lt 300 ]; do
        sleep 0.1
        RECEIVER_PORT=$(head -1 "$RUN_DIR/sink.out")
        n=$((n + 1))
    done
    [ -n "$RECEIVER_PORT" ] || die "the receiver did not start: $(cat "$RUN_DIR/sink.out")"
}

cpu_pairs() {
    local results=$RUN_DIR/cpu.txt round config options
    : >"$results"
    start_receiver
    for round in $(seq 1 "$PAIRS"); do
        for config in A B; do
            options="file=$RUN_DIR/hs-%p.pb.gz"
            [ "$config" = B ] && options="$options,push=http://127.0.0.1:$RECEIVER_PORT,push_period=${PUSH_PERIOD}s"
            RUN_OUT=$RUN_DIR/out RUN_ERR=$RUN_DIR/err
            run_measured "$JAVA" -Xms1g -Xmx1g -XX:+UseG1GC "-agentpath:$AGENT=$options" \
                -cp "$WORK/classes" AllocMix "$ALLOCMIX_STEPS"
            [ "$RUN_RC" = 0 ] || die "run $config failed: $(tail -3 "$RUN_ERR")"
            echo "$config $RUN_CPU $RUN_WALL" >>"$results"
            note "round $round $config: cpu $RUN_CPU s, wall $RUN_WALL s"
        done
    done
    kill "$RECEIVER_PID" 2>/dev/null
    wait "$RECEIVER_PID" 2>/dev/null
    awk "$AWK_STATS"'
        $1 == "A" { ca[++na] = $2; wa[na] = $3 }
        $1 == "B" { cb[++nb] = $2; wb[nb] = $3 }
        END {
            for (i = 1; i <= nb; i++) { rc[i] = cb[i] / ca[i]; rw[i] = wb[i] / wa[i] }
            printf "push every %ss vs off, %d pairs: CPU ratio %s, wall ratio %s\n", period, nb,
                summary(rc, nb, "%.4f"), summary(rw, nb, "%.4f")
        }' period="$PUSH_PERIOD" "$results"
}

# One PushFill run; "$1" = extra agent options. Prints VmRSS/VmHWM (kB) near its end.
fill_run() {
    local options="file=$RUN_DIR/fill-%p.pb.gz,log=info,rate=5000/s,memory=$FILL_MEMORY$1" pid rss hwm
    "$JAVA" -Xms256m -Xmx256m -XX:+AlwaysPreTouch "-agentpath:$AGENT=$options" -cp "$WORK/classes" PushFill "$FILL_SECONDS" \
        >"$RUN_DIR/fill.out" 2>"$RUN_DIR/fill.err" &
    pid=$!
    sleep $((FILL_SECONDS - 2))
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
    hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")
    wait "$pid"
    echo "VmRSS ${rss} kB, VmHWM ${hwm} kB"
    grep -h "heapsampler: push: [0-9]* sent" "$RUN_DIR/fill.err" || true
}

[ "${SKIP_CPU:-0}" = 1 ] || cpu_pairs
dead=$(free_port)
echo "PushFill ${FILL_SECONDS}s without push:      $(fill_run "")"
echo "PushFill ${FILL_SECONDS}s, push to nobody (queue full): $(fill_run ",push=http://127.0.0.1:$dead,push_period=1s")"
