#!/usr/bin/env bash
# scrape.sh: what serving profiles over HTTP costs: bench/AllocMix.java with the agent at its
# defaults, without the endpoint (A) and with http=0 scraped every $SCRAPE_PERIOD seconds (B),
# as Grafana Alloy scrapes /debug/pprof/allocs (every 15 s by default).
#
# Measurement: PAIRS rounds of A then B (alternating A B A B), each run a fixed amount of work
# (AllocMix, 2 threads x $ALLOCMIX_STEPS steps, -Xms1g -Xmx1g G1). Prints the median over the
# rounds of CPU(B)/CPU(A) with min-max, then the same for wall time, and the scrapes that got a
# profile per run. CPU = user+sys of the java process tree (lib.sh run_measured); the scraping
# client (curl, in a subshell reaped after the measurement) is not counted, the agent's serving
# thread is (it is inside the JVM).
#
# Then one more run with B's options, scraped every THREAD_PERIOD (1.5) seconds, reads the CPU
# time of the agent's serving thread ("heapsampler http", /proc/PID/task/TID/schedstat, ns)
# and of the whole JVM (/proc/PID/stat): the CPU one scrape costs (build, encode, send),
# measured exactly, whatever the load on the machine, and what it comes to every 15 s as a
# share of the JVM's CPU. Builds are shared for a second, so THREAD_PERIOD stays above it.
#
# Usage: bench/scrape.sh [path/to/libheapsampler.so]
# Knobs (environment): PAIRS=5  SCRAPE_PERIOD=15  THREAD_PERIOD=1.5  ALLOCMIX_STEPS=24000000
#        THREAD_STEPS=<3 x ALLOCMIX_STEPS>  JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

bench_setup "${1:-}" scrape
PAIRS=${PAIRS:-5}
SCRAPE_PERIOD=${SCRAPE_PERIOD:-15}
ALLOCMIX_STEPS=${ALLOCMIX_STEPS:-24000000}
need_curl
compile_workload "$JAVA_HOME" AllocMix "$WORK/classes"

# Scrapes the endpoint named in $RUN_ERR every SCRAPE_PERIOD s until killed; counts the
# profiles it got in $RUN_DIR/scrapes.
scraper() {
    local port
    : >"$RUN_DIR/scrapes"
    port=$(endpoint_port "$RUN_ERR" 600)
    [ -n "$port" ] || return 0
    while :; do
        sleep "$SCRAPE_PERIOD"
        curl -sf --max-time 10 -o "$RUN_DIR/scraped.pb.gz" "http://127.0.0.1:$port/debug/pprof/allocs" &&
            echo ok >>"$RUN_DIR/scrapes"
    done
}

# One run; "$1" = A or B. Appends "config cpu wall scrapes" to $RESULTS.
run_one() {
    local config=$1 options="file=$RUN_DIR/hs-%p.pb.gz" scraper_pid=""
    RUN_OUT=$RUN_DIR/out RUN_ERR=$RUN_DIR/err
    : >"$RUN_ERR"
    rm -f "$RUN_DIR"/hs-*.pb.gz
    if [ "$config" = B ]; then
        options="$options,http=0"
        scraper &
        scraper_pid=$!
    fi
    run_measured "$JAVA" "-agentpath:$AGENT=$options" -Xms1g -Xmx1g -XX:+UseG1GC \
        -cp "$WORK/classes" AllocMix "$ALLOCMIX_STEPS"
    local scrapes=0
    if [ -n "$scraper_pid" ]; then
        kill "$scraper_pid" 2>/dev/null
        wait "$scraper_pid" 2>/dev/null
        scrapes=$(wc -l <"$RUN_DIR/scrapes")
    fi
    [ "$RUN_RC" = 0 ] && grep -q '^AllocMix checksum' "$RUN_OUT" ||
        { tail -20 "$RUN_ERR" >&2; die "AllocMix under $config failed (exit $RUN_RC)"; }
    echo "$config $RUN_CPU $RUN_WALL $scrapes" >>"$RESULTS"
    note "$config: cpu ${RUN_CPU}s wall ${RUN_WALL}s scrapes $scrapes"
}

RESULTS=$WORK/scrape-$(date +%Y%m%d-%H%M%S).txt
note "AllocMix 2 x $ALLOCMIX_STEPS steps on $("$JAVA" -version 2>&1 | head -1); agent defaults; B adds http=0 scraped every ${SCRAPE_PERIOD}s; $PAIRS pairs; load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$PAIRS"); do
    run_one A
    run_one B
done
[ "$PAIRS" -gt 0 ] && awk "$AWK_STATS"'
    $1 == "A" { ca[++na] = $2; wa[na] = $3 }
    $1 == "B" { cb[++nb] = $2; wb[nb] = $3; s[nb] = $4 }
    END {
        for (i = 1; i <= nb; i++) { rc[i] = cb[i] / ca[i]; rw[i] = wb[i] / wa[i]; sc[i] = s[i] }
        printf "scrape every %ss vs no endpoint, %d pairs: CPU ratio %s, wall ratio %s, scrapes per run %s\n",
            period, nb, summary(rc, nb, "%.4f"), summary(rw, nb, "%.4f"), summary(sc, nb, "%.0f")
    }' period="$SCRAPE_PERIOD" "$RESULTS"
[ "$PAIRS" -gt 0 ] && echo "results: $RESULTS"

# --- the serving thread's own CPU per scrape ------------------------------------------------
serving_thread_cpu() {
    local err=$RUN_DIR/thread-err pid="" port="" n=0 thread_ns=0 ticks=0 start end t
    "$JAVA" "-agentpath:$AGENT=file=$RUN_DIR/hs-%p.pb.gz,http=0" -Xms1g -Xmx1g -XX:+UseG1GC \
        -cp "$WORK/classes" AllocMix "${THREAD_STEPS:-$((ALLOCMIX_STEPS * 3))}" >"$RUN_DIR/thread-out" 2>"$err" &
    pid=$!
    start=$EPOCHREALTIME
    port=$(endpoint_port "$err" 200)
    [ -n "$port" ] || die "no endpoint line from the JVM"
    while kill -0 "$pid" 2>/dev/null; do
        sleep "${THREAD_PERIOD:-1.5}"
        curl -sf --max-time 10 -o /dev/null "http://127.0.0.1:$port/debug/pprof/allocs" && n=$((n + 1))
        for t in /proc/"$pid"/task/*; do # the last reading before the JVM exits counts
            [ "$(cat "$t/comm" 2>/dev/null)" = "heapsampler htt" ] &&
                thread_ns=$(awk '{ print $1 }' "$t/schedstat" 2>/dev/null)
        done
        t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) && ticks=$t
    done
    wait "$pid"
    end=$EPOCHREALTIME
    awk -v n="$n" -v ns="$thread_ns" -v ticks="$ticks" -v hz="$(getconf CLK_TCK)" \
        -v wall="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" 'BEGIN {
        if (n < 1 || ns <= 0) { print "serving thread: no scrape measured"; exit }
        per = ns / n / 1e6; cpu = ticks / hz
        printf "serving thread: %d scrapes, %.2f ms CPU per scrape (build, encode, send); " \
               "the JVM used %.1f s CPU in %.1f s; one scrape every 15 s = %.4f %% of its CPU\n",
               n, per, cpu, wall, 100 * (per / 1000) * (wall / 15) / cpu
    }'
}
serving_thread_cpu
