# shellcheck shell=bash disable=SC2034 # sets variables for the scripts that source it
# lib.sh: shared helpers for the benchmark scripts in bench/ (sourced, not run).
#
# Owns: finding the JDK, building the agent / the floor agent / the Java workloads,
# running one measured command (CPU of the whole child process tree from the shell's
# `times` builtin, wall from $EPOCHREALTIME), and the awk statistics (median, min, max).
# Plain bash + awk (mawk is enough) + coreutils: no python, no /usr/bin/time.

export LC_ALL=C # '.' as the decimal point in $EPOCHREALTIME, times and awk
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS # would change every run and print noise

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)

die() {
    echo "error: $*" >&2
    exit 1
}

# For -h/--help: prints the calling script's header comment (its usage) and exits.
print_usage_if_asked() {
    case "${1:-}" in -h | --help)
        sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    esac
}

# The results file: with REPORT= an earlier run's (to print its tables again), else a new
# one named after $1 in $WORK. Call as RESULTS=$(results_file NAME) || exit 1.
results_file() {
    if [ -n "${REPORT:-}" ]; then
        [ -f "$REPORT" ] || die "no such results file: $REPORT"
        echo "$REPORT"
    else
        echo "$WORK/$1-$(date +%Y%m%d-%H%M%S).tsv"
    fi
}

note() { echo "# $*" >&2; }

# The JDK the workloads run on: $JAVA_HOME, else Debian's JDK 17, else the one owning javac.
find_java_home() {
    if [ -n "${JAVA_HOME:-}" ]; then
        echo "$JAVA_HOME"
    elif [ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/javac ]; then
        echo /usr/lib/jvm/java-17-openjdk-amd64
    elif command -v javac >/dev/null; then
        dirname "$(dirname "$(readlink -f "$(command -v javac)")")"
    else
        die "no JDK found: install openjdk-17-jdk-headless or set JAVA_HOME"
    fi
}

# "17.0.15" for a JDK home.
java_version() {
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.version = / { print $2; exit }'
}

# The heapsampler agent: $1 if given, else <repo>/build/libheapsampler.so, built with cmake if absent.
find_agent() {
    local agent=${1:-$REPO_DIR/build/libheapsampler.so}
    if [ ! -f "$agent" ] && [ -z "${1:-}" ]; then
        note "building the agent into $REPO_DIR/build"
        command -v cmake >/dev/null || die "cmake is needed to build the agent (apt-get install cmake)"
        if ! cmake -S "$REPO_DIR" -B "$REPO_DIR/build" -DHEAPSAMPLER_JTREG=OFF >/dev/null ||
            ! cmake --build "$REPO_DIR/build" -j2 --target heapsampler >/dev/null; then
            die "building the agent failed"
        fi
    fi
    [ -f "$agent" ] || die "agent not found: $agent"
    readlink -f "$agent"
}

# Builds bench/floor_agent.c against $1 (a JDK home) into $2. With frame pointers: perf's
# call graphs (attribution.sh) unwind through them, and a callback that used the frame
# register for data would cut its samples off the sampling hook they belong to.
build_floor_agent() {
    gcc -std=c11 -O2 -fno-omit-frame-pointer -Wall -Wextra -shared -fPIC -isystem "$1/include" -isystem "$1/include/linux" \
        "$BENCH_DIR/floor_agent.c" -o "$2" || die "building floor_agent.c failed"
}

# async-profiler (https://github.com/async-profiler/async-profiler), for comparisons only:
# builds its agent library from a local checkout $1 (never fetched or committed here: the
# caller names a checkout it has, e.g. ASYNC_PROFILER_SRC) against JDK $2, in a copy under
# $WORK, and prints the library's path. Needs make, g++ and a static libstdc++
# (Debian: libstdc++-12-dev). Built once per checkout commit.
build_async_profiler() {
    local src=$1 java_home=$2 stamp dir
    [ -f "$src/Makefile" ] && [ -d "$src/src" ] || die "no async-profiler checkout at $src"
    stamp=$(cd "$src" && { git rev-parse --short HEAD 2>/dev/null || date -r Makefile +%s; })
    dir=$WORK/async-profiler-$stamp
    if [ ! -f "$dir/build/lib/libasyncProfiler.so" ]; then
        note "building async-profiler's agent from $src into $dir (a few minutes)"
        rm -rf "$dir" && mkdir -p "$dir" && cp -r "$src/." "$dir/" && mkdir -p "$dir/build/lib" ||
            die "cannot copy $src to $dir"
        make -s -C "$dir" JAVA_HOME="$java_home" build/lib/libasyncProfiler.so >"$dir/build.log" 2>&1 ||
            { tail -20 "$dir/build.log" >&2; die "building async-profiler failed (see $dir/build.log)"; }
    fi
    echo "$dir/build/lib/libasyncProfiler.so"
}

# Compiles bench/$2.java (or $2, a path from the repository's root such as
# jtreg/leak/RegistryLeak.java) with JDK $1 into directory $3.
compile_workload() {
    local source="$BENCH_DIR/$2.java"
    case "$2" in */*) source="$REPO_DIR/$2" ;; esac
    mkdir -p "$3"
    "$1/bin/javac" -d "$3" "$source" || die "compiling $2 failed"
}

# Runs "$@" once with stdout to $RUN_OUT and stderr to $RUN_ERR (set by the caller) and sets
# RUN_CPU (user+sys seconds of the command and everything it started), RUN_WALL (seconds) and
# RUN_RC. `times` reports the shell's reaped children; nothing but the command is reaped between
# the two snapshots, so the difference is exactly its process tree. It must run in this shell
# (not in $(...) or a pipe), hence the files.
run_measured() {
    local before=$WORK/times.before after=$WORK/times.after start end
    times >"$before"
    start=$EPOCHREALTIME
    timeout --foreground "${RUN_TIMEOUT:-900}" "$@" >"$RUN_OUT" 2>"$RUN_ERR"
    RUN_RC=$?
    end=$EPOCHREALTIME
    times >"$after"
    RUN_CPU=$(awk '
        function secs(t, parts) { sub(/s$/, "", t); split(t, parts, "m"); return parts[1] * 60 + parts[2] }
        FNR == 2 { v = secs($1) + secs($2); if (NR == FNR) b = v; else a = v }
        END { printf "%.3f", a - b }' "$before" "$after")
    RUN_WALL=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
}

# Copies stdin to stdout, each line prefixed with the seconds since $1 (an $EPOCHREALTIME)
# and a tab: when an agent's line arrived.
timestamp_lines() {
    local line
    while IFS= read -r line; do
        printf '%s\t%s\n' "$(awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')" "$line"
    done
}

# The first line of a timestamped agent log (timestamp_lines) naming site $2 a suspect
# ("<seconds>\theapsampler: suspect: ..."), or nothing.
first_suspect() {
    awk -F'\t' -v s="suspect: $2" 'index($2, s) { print; exit }' "$1"
}

# How many suspect lines of log $1 name site $2.
suspect_lines() {
    grep -c "suspect: $2" "$1"
}

# Awk functions for the summaries: median and range of v[1..n] (n >= 1).
AWK_STATS='
function sort_values(v, n,    i, j, x) {
    for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
}
function median(v, n) {
    sort_values(v, n)
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function mean(v, n,    i, s) { for (i = 1; i <= n; i++) s += v[i]; return s / n }
# the standard error of the mean of v[1..n] (0 for n < 2)
function std_error(v, n,    i, m, ss) {
    if (n < 2) return 0
    m = mean(v, n)
    for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
    return sqrt(ss / (n - 1) / n)
}
function lowest(v, n,    i, m) { m = v[1]; for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]; return m }
function highest(v, n,    i, m) { m = v[1]; for (i = 2; i <= n; i++) if (v[i] > m) m = v[i]; return m }
# "1.012 (0.990-1.030)" with the given printf format for each number
function summary(v, n, fmt,    lo, hi) {
    lo = lowest(v, n); hi = highest(v, n)
    return sprintf(fmt " (" fmt "-" fmt ")", median(v, n), lo, hi)
}
# Judges ratios v[1..n] against the band [lo_ok, hi_ok]: "met" or "MISSED" when every ratio is
# on one side of the band, else whether the median is in the band and that noise spans it.
function verdict(v, n, lo_ok, hi_ok,    m, lo, hi) {
    m = median(v, n); lo = lowest(v, n); hi = highest(v, n)
    if (lo >= lo_ok && hi <= hi_ok) return "met"
    if (lo > hi_ok || hi < lo_ok) return "MISSED"
    return (m >= lo_ok && m <= hi_ok ? "met" : "missed") " by the median, but min-max spans the target: run more rounds"
}
'

# The preamble of a benchmark: AGENT (from $1, the script's argument), JAVA_HOME, JAVA, WORK
# and RUN_DIR=$WORK/$2-run, created. Exits with a message when one cannot be had.
bench_setup() {
    AGENT=$(find_agent "${1:-}") || exit 1
    JAVA_HOME=$(find_java_home) || exit 1
    JAVA=$JAVA_HOME/bin/java
    WORK=${WORK:-${TMPDIR:-/tmp}/heapsampler-bench}
    RUN_DIR=$WORK/$2-run
    mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"
}

need_curl() { command -v curl >/dev/null || die "curl is needed (apt-get install curl)"; }

# The port of the agent's endpoint, from the JVM's startup line in stderr file $1; waits
# at most $2 tries of 0.05 s (default 400: 20 s). Prints nothing when it never came.
endpoint_port() {
    local port="" i
    for i in $(seq "${2:-400}"); do
        port=$(grep -o 'on http://127.0.0.1:[0-9]*' "$1" 2>/dev/null | head -1 | sed 's/.*://')
        [ -n "$port" ] && break
        sleep 0.05
    done
    echo "$port"
}
