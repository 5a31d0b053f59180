#!/usr/bin/env bash
# hostile_scrape.sh: is a scraper still answered while hostile peers do their worst?
#
# One JVM (bench/PushFill.java, allocating) serves http=0. bench/HostileClients.java sets
# SLOW sockets sending request heads a byte a second (reconnecting as soon as they are cut)
# and WAITERS sockets asking ?seconds=300 (asking again as soon as they are refused) on it,
# all from 127.0.0.1, for DURATION seconds; meanwhile curl (a client nobody here wrote)
# scrapes /debug/pprof/allocs once a second, as Grafana Alloy would, each scrape bounded by
# 10 s. Prints the scrapes answered 200 out of those asked, and their answer times (median,
# max). A first, quiet run of QUIET_SECONDS without the hostile peers gives the answer
# times to compare with. With COMPARE=path/to/another/libheapsampler.so the same is run
# with that agent first (an earlier build, say).
#
# Usage: bench/hostile_scrape.sh [path/to/libheapsampler.so]
# Knobs (environment): DURATION=60  SLOW=5  WAITERS=5  QUIET_SECONDS=20  COMPARE=
#        JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
# Only 127.0.0.1; every loop is bounded (the scraper asks at most DURATION times, the
# hostile driver stops after DURATION seconds).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

bench_setup "${1:-}" hostile
DURATION=${DURATION:-60}
SLOW=${SLOW:-5}
WAITERS=${WAITERS:-5}
QUIET_SECONDS=${QUIET_SECONDS:-20}
need_curl
compile_workload "$JAVA_HOME" PushFill "$WORK/classes"
compile_workload "$JAVA_HOME" HostileClients "$WORK/classes"

# Scrapes port $1 once a second, $2 times; one line "CODE SECONDS" per scrape into $3.
scrape() {
    local i start
    : >"$3"
    for i in $(seq "$2"); do
        start=$EPOCHREALTIME
        curl -s -o /dev/null --max-time 10 -w '%{http_code} %{time_total}\n' \
            "http://127.0.0.1:$1/debug/pprof/allocs" >>"$3" || echo "000 10" >>"$3"
        sleep "$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { d = 1 - (e - s); print (d > 0 ? d : 0) }')"
    done
}

# "answered A of N (P %), answer time median X ms, max Y ms" of a scrape file.
summarize() {
    awk "$AWK_STATS"'
        { n++; if ($1 == "200") { ok++; t[ok] = $2 * 1000 } }
        END {
            if (ok == 0) { printf "answered 0 of %d (0 %%)", n; exit }
            printf "answered %d of %d (%.1f %%), answer time median %.1f ms, max %.1f ms",
                ok, n, 100 * ok / n, median(t, ok), highest(t, ok)
        }' "$1"
}

# One measurement with agent $1, labelled $2: a quiet part, then the hostile part.
measure() {
    local agent=$1 label=$2 pid port hostile
    local err=$RUN_DIR/$label-err
    "$JAVA" "-agentpath:$agent=file=$RUN_DIR/hs-%p.pb.gz,http=0" -Xmx256m -cp "$WORK/classes" \
        PushFill $((QUIET_SECONDS + DURATION + 15)) >"$RUN_DIR/$label-out" 2>"$err" &
    pid=$!
    port=$(endpoint_port "$err")
    if [ -z "$port" ]; then
        kill "$pid" 2>/dev/null
        die "$label: no endpoint line from the JVM: $(tail -3 "$err")"
    fi
    scrape "$port" "$QUIET_SECONDS" "$RUN_DIR/$label-quiet"
    "$JAVA" -cp "$WORK/classes" HostileClients "$port" "$DURATION" "$SLOW" "$WAITERS" \
        >"$RUN_DIR/$label-hostile" 2>&1 &
    hostile=$!
    sleep 2 # the attack is under way
    scrape "$port" $((DURATION - 4)) "$RUN_DIR/$label-attacked"
    wait "$hostile"
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    echo "$label quiet:    $(summarize "$RUN_DIR/$label-quiet")"
    echo "$label attacked: $(summarize "$RUN_DIR/$label-attacked") under $SLOW slow heads and $WAITERS ?seconds=300 askers; $(cat "$RUN_DIR/$label-hostile")"
}

note "PushFill on $("$JAVA" -version 2>&1 | head -1), http=0; scrape every 1 s; $SLOW slow heads + $WAITERS ?seconds=300 askers for ${DURATION}s; load $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${COMPARE:-}" ] && measure "$(readlink -f "$COMPARE")" compared
measure "$AGENT" agent
