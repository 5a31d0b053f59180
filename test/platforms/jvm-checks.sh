#!/usr/bin/env bash
# jvm-checks.sh: the scripted JVM checks of a platform build (scripts/cross-arm64.sh runs them
# in the emulated arm64 JDK; scripts/build-musl.sh runs the command's part with the static
# musl command against the host's JDK). The JVM runs ChurnRetain (retains 4,000 long[1022],
# churns 256 MB of int[30]); its profiles are read on the host by PlatformProfileCheck with
# the suite's pprof decoder.
#
#   test/platforms/jvm-checks.sh --work DIR --jdk JAVA_HOME --cli "CMD..." [options]
#     --run "PREFIX..."   how to run the JDK's programs (e.g. "qemu-aarch64-static -L ROOT")
#     --arch ARCH         os.arch the JVM must report (the startup check)
#     --agent LIB         the agent to test inside the JVM: startup, then G1 and Parallel runs
#                         (the heap source the log names; alloc and in-use within 4 sigma)
#     --cli "CMD..."      the command under test: list, load, status, top, dump, against a
#                         JVM started without the agent
#     --load-lib LIB      the agent the command loads (--lib), when not the one beside it
#     --host-cli CMD      also ask that JVM's agent with this command (another architecture's)
#     --only command      the command's checks alone
#
# Prints "PASS: ..." / "FAIL: ..." per check into DIR/checks.log (and stdout), and ends with
# "N passed, N failed" (also DIR/summary.txt). Exit status 1 if any check failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="" jdk="" run="" arch="" agent="" cli="" load_lib="" host_cli="" only=""
while [ $# -gt 0 ]; do
    case $1 in
        --work) work=$2 ;; --jdk) jdk=$2 ;; --run) run=$2 ;; --arch) arch=$2 ;;
        --agent) agent=$2 ;; --cli) cli=$2 ;; --load-lib) load_lib=$2 ;;
        --host-cli) host_cli=$2 ;; --only) only=$2 ;;
        *) echo "jvm-checks: unknown argument $1" >&2; exit 2 ;;
    esac
    shift 2
done
[ -n "$work" ] && [ -n "$jdk" ] && [ -n "$cli" ] || { echo "jvm-checks: --work, --jdk and --cli are required" >&2; exit 2; }
host_jdk=${HOST_JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
interval=16384
rm -rf "$work" && mkdir -p "$work/classes"
log=$work/checks.log
: > "$log"
passed=0 failed=0
read -r -a run_words <<< "$run"
read -r -a cli_words <<< "$cli"
java=("${run_words[@]}" "$jdk/bin/java")

pass() { echo "PASS: $*" | tee -a "$log"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*" | tee -a "$log"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@" >>"$log" 2>&1; then pass "$what"; else fail "$what"; fi; }
finish() {
    printf '%d passed, %d failed\n' "$passed" "$failed" | tee -a "$log" > "$work/summary.txt"
    cat "$work/summary.txt"
    [ "$failed" -eq 0 ]
}

# Compiled on the host (class files are the same everywhere); ChurnRetain for Java 11+.
"$host_jdk/bin/javac" -d "$work/classes" --release 11 "$here/ChurnRetain.java" \
    "$here/PlatformProfileCheck.java" "$root/jtreg/lib/heapsampler/Pprof.java"
profile_check() { "$host_jdk/bin/java" -cp "$work/classes" PlatformProfileCheck "$@"; }

# profile_checks WHAT ARGS...: PlatformProfileCheck's lines counted as checks.
profile_checks() {
    local what=$1 line
    shift
    while IFS= read -r line; do
        case $line in
            PASS:*) pass "$what: ${line#PASS: }" ;;
            FAIL:*) fail "$what: ${line#FAIL: }" ;;
            *) echo "$line" >> "$log" ;;
        esac
    done < <(profile_check "$@" 2>&1 || true)
}

# bounded SECONDS OUT CMD...: CMD with its output in OUT, killed after SECONDS (exit 124);
# then where it was stuck (its kernel stack, its open files) is appended to OUT.
bounded() {
    local secs=$1 out=$2 pid rc=0
    shift 2
    "$@" >"$out" 2>&1 &
    pid=$!
    for _ in $(seq 1 $((secs * 5))); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
        { echo "--- still running after $secs s: wchan $(cat "/proc/$pid/wchan" 2>/dev/null), kernel stack:"
          cat "/proc/$pid/stack" 2>/dev/null; ls -l "/proc/$pid/fd" 2>/dev/null; } >>"$out"
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        return 124
    fi
    wait "$pid" || rc=$?
    return $rc
}

startup() {
    local out=$work/startup.out
    if timeout 300 "${java[@]}" -agentpath:"$agent"=log=info -XshowSettings:properties -version >"$out" 2>&1 \
       && grep -q '^heapsampler: started: ' "$out" && { [ -z "$arch" ] || grep -q "os.arch = $arch\$" "$out"; }; then
        pass "startup: $(grep -m1 '^openjdk version' "$out"), os.arch $(sed -n 's/^ *os.arch = //p' "$out"), the agent started"
    else
        fail "startup: java -agentpath -version (output $out)"
    fi
}

# accuracy GC SOURCE: ChurnRetain run under GC with the agent; the heap source the log names.
accuracy() {
    local gc=$1 source=$2 out=$work/$1.out profile=$work/$1.pb.gz t0
    t0=$(date +%s)
    if ! timeout 600 "${java[@]}" -Xmx256m -XX:+Use"$gc"GC \
            -agentpath:"$agent"=interval=$interval,rate=0,log=info,file="$profile" \
            -cp "$work/classes" ChurnRetain run >"$out" 2>&1; then
        fail "$gc: ChurnRetain run failed (output $out)"
        return
    fi
    pass "$gc: ChurnRetain ran with the agent, exit 0 ($(( $(date +%s) - t0 )) s)"
    local heap_line
    heap_line=$(grep -m1 '^heapsampler: heap source ' "$out" || true)
    if [[ $heap_line == "heapsampler: heap source $source"* ]]; then pass "$gc: ${heap_line#heapsampler: }"
    else fail "$gc: expected heap source $source, the log says: '${heap_line:-nothing}'"; fi
    local retained churned
    retained=$(sed -n 's/^ChurnRetain: retained \([0-9]*\) .*churned \([0-9]*\) .*/\1/p' "$out")
    churned=$(sed -n 's/^ChurnRetain: retained \([0-9]*\) .*churned \([0-9]*\) .*/\2/p' "$out")
    if [ -z "$retained" ] || [ ! -s "$profile" ]; then
        fail "$gc: no truth line or no profile (output $out)"
        return
    fi
    profile_checks "$gc" accuracy "$profile" "$gc" "$interval" "$retained" "$churned"
}

# The command against a JVM started without the agent: list, load, status, top, dump.
command_checks() {
    local stop=$work/stop out=$work/serve.out pid=""
    rm -f "$stop"
    timeout 900 "${java[@]}" -Xmx256m -cp "$work/classes" ChurnRetain serve "$stop" >"$out" 2>&1 &
    local launcher=$!
    for _ in $(seq 1 600); do
        grep -q '^ChurnRetain: serving' "$out" 2>/dev/null && break
        kill -0 "$launcher" 2>/dev/null || break
        sleep 0.2
    done
    # The JVM: the launcher itself, or (under timeout) its child.
    pid=$(pgrep -P "$launcher" | head -n 1 || true)
    [ -n "$pid" ] || pid=$launcher
    if ! grep -q '^ChurnRetain: serving' "$out"; then
        fail "command: the JVM did not start (output $out)"
        return
    fi
    local lib_args=()
    [ -z "$load_lib" ] || lib_args=(--lib "$load_lib")
    local c=("${cli_words[@]}")
    local rc=0
    bounded 60 "$work/list.out" "${c[@]}" list || rc=$?
    if [ $rc -eq 0 ] && grep -Eq "^$pid +ChurnRetain +17\.[0-9.]+ +-" "$work/list.out"; then
        pass "command list: $(grep -E "^$pid " "$work/list.out" | tr -s ' ')"
    else
        fail "command list: exit $rc, no row '$pid ChurnRetain 17.x -' (output $work/list.out)"
    fi
    check "command load $pid interval=$interval" timeout 300 "${c[@]}" load "$pid" interval=$interval "${lib_args[@]}"
    sleep 5 # a few rounds of ChurnRetain with the agent in
    if timeout 120 "${c[@]}" status "$pid" >"$work/status.out" 2>&1 && grep -q '^state: running' "$work/status.out"; then
        pass "command status: $(grep -m1 '^state:' "$work/status.out" | tr -s ' ')"
    else
        fail "command status: no 'state: running' (output $work/status.out)"
    fi
    if timeout 120 "${c[@]}" top "$pid" -n 5 >"$work/top.out" 2>&1 \
       && grep -q 'ChurnRetain.retain.*long\[\]' "$work/top.out" && grep -q 'ChurnRetain.churn.*int\[\]' "$work/top.out"; then
        pass "command top: both sites ranked ($(grep -m1 'ChurnRetain.retain' "$work/top.out" | tr -s ' '))"
    else
        fail "command top: retain's long[] and churn's int[] not both listed (output $work/top.out)"
    fi
    rm -f "$work/dump.pb.gz"
    if timeout 120 "${c[@]}" dump "$pid" -o "$work/dump.pb.gz" >"$work/dump.out" 2>&1; then
        pass "command dump -o dump.pb.gz"
        profile_checks "command dump" dump "$work/dump.pb.gz"
    else
        fail "command dump (output $work/dump.out)"
    fi
    if [ -n "$host_cli" ]; then
        if timeout 120 "$host_cli" status "$pid" >"$work/host-status.out" 2>&1 \
           && grep -q '^state: running' "$work/host-status.out"; then
            pass "the host's command ($(file -b "$host_cli" | cut -d, -f2 | sed 's/^ *//')) asks the same agent: status"
        else
            fail "the host's command status (output $work/host-status.out)"
        fi
    fi
    touch "$stop"
    rc=0
    wait "$launcher" || rc=$?
    if [ $rc -eq 0 ] && ! ls "$work"/hs_err_pid* >/dev/null 2>&1; then
        pass "the JVM exits 0 after the command's visit"
    else
        fail "the JVM exited $rc (output $out)"
    fi
}

if [ "$only" != command ] && [ -n "$agent" ]; then
    startup
    accuracy G1 vmstructs
    accuracy Parallel gcinfo
fi
command_checks
finish
