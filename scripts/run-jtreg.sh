#!/usr/bin/env bash
# run-jtreg.sh: runs the jtreg suite (jtreg/) against one JDK and the agent as built.
#
#   scripts/run-jtreg.sh JDK_HOME LIBDIR WORKDIR [jtreg options or tests...]
#
# JDK_HOME  the JDK to test in; if it has no bin/java the suite is skipped (exit 77, which
#           ctest reports as skipped).
# LIBDIR    the directory holding libheapsampler.so (the build directory).
# WORKDIR   where jtreg keeps its work files (WORKDIR/work, one .jtr log per test) and
#           reports (WORKDIR/report).
# Anything after WORKDIR is passed to jtreg; naming tests (e.g. jtreg/startup/HelpTest.java)
# runs only those instead of the whole suite.
#
# Environment: JTREG (the jtreg command, default: jtreg on PATH), JTREG_JAVA (the java
# that runs jtreg itself, default: the JDK under test), JTREG_OPTIONS (more jtreg options,
# e.g. "-vmoption:-XX:+UseParallelGC" to run every child JVM under that GC),
# HEAPSAMPLER_CRASH_DIR (where the hs_err files of crashed child JVMs are kept, default:
# WORKDIR/crashes, emptied first; jtreg's scratch directories do not keep them).
#
# Exit status: jtreg's (0 all passed, non-zero if any test failed or errored), 77 skipped.
set -euo pipefail

usage() {
    echo "usage: $0 JDK_HOME LIBDIR WORKDIR [jtreg options or tests...]" >&2
    exit 2
}
[ $# -ge 3 ] || usage
jdk=$1
libdir=$2
workdir=$3
shift 3

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ ! -x "$jdk/bin/java" ]; then
    echo "jtreg: JDK $jdk not present: skipping its suite"
    exit 77
fi
if [ ! -f "$libdir/libheapsampler.so" ]; then
    echo "jtreg: $libdir/libheapsampler.so not found: build the agent first" >&2
    exit 1
fi
jtreg=${JTREG:-$(command -v jtreg || true)}
if [ -z "$jtreg" ]; then
    echo "jtreg: the jtreg command was not found (apt-get install jtreg7, or set JTREG)" >&2
    exit 1
fi

# jtreg's launcher would otherwise run on $JAVA_HOME, which may be too old or unset.
export JTREG_JAVA=${JTREG_JAVA:-$jdk/bin/java}

libdir=$(cd "$libdir" && pwd)
mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)

# Tests see only the environment variables passed with -e: tell them where go is, for the
# checks that read profiles with go tool pprof ...
go_bin=$(command -v go || true)
if [ -z "$go_bin" ] && [ -x /usr/lib/go/bin/go ]; then
    go_bin=/usr/lib/go/bin/go
fi
env_args=()
# ... where a crashed child JVM's hs_err file is kept (jtreg/lib/heapsampler/CrashReport.java):
# this run's own directory unless one is given ...
if [ -z "${HEAPSAMPLER_CRASH_DIR:-}" ]; then
    HEAPSAMPLER_CRASH_DIR="$workdir/crashes"
    rm -rf "$HEAPSAMPLER_CRASH_DIR"
fi
env_args+=("-e:HEAPSAMPLER_CRASH_DIR=$HEAPSAMPLER_CRASH_DIR")
if [ -n "$go_bin" ]; then
    env_args+=("-e:HEAPSAMPLER_TEST_GO=$go_bin")
fi
# ... and where chromium is, for the HTML flame graph test.
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium_bin" ]; then
    env_args+=("-e:HEAPSAMPLER_TEST_CHROMIUM=$chromium_bin")
fi

# Tests named on the command line replace the default of the whole suite.
tests=("$root/jtreg")
for arg in "$@"; do
    case $arg in
        -*) ;;
        *) tests=(); break ;;
    esac
done

# shellcheck disable=SC2086 # JTREG_OPTIONS is a list of options
set -- -jdk:"$jdk" -nativepath:"$libdir" -w:"$workdir/work" -r:"$workdir/report" \
    -conc:2 -verbose:summary -timeoutFactor:4 ${env_args[@]+"${env_args[@]}"} ${JTREG_OPTIONS:-} \
    "$@" "${tests[@]}"
echo "jtreg: $jtreg $*"
status=0
"$jtreg" "$@" || status=$?

# print_crash_reports SUMMARY: the first lines of the kept hs_err files of the tests that did
# not pass (a kept file is named TEST-RUNDIR-hs_err_pidN.log, TEST with [^A-Za-z0-9_.-] as
# _), 3 files at most: CI keeps the console of a failed run, not the work directory.
print_crash_reports() {
    local test prefix file shown=0
    [ -d "$HEAPSAMPLER_CRASH_DIR" ] || return 0
    while read -r test _; do
        prefix=$(printf '%s' "$test" | sed 's/[^A-Za-z0-9_.-]/_/g')
        for file in "$HEAPSAMPLER_CRASH_DIR/$prefix"-*hs_err_pid*.log; do
            [ -f "$file" ] || continue
            shown=$((shown + 1))
            if [ "$shown" -gt 3 ]; then
                echo "jtreg: more crash reports of $test: $file"
                continue
            fi
            echo "jtreg: $test: a child JVM crashed; its report (kept as $file), first 200 lines:"
            head -n 200 "$file" | cut -c 1-400 | sed 's/^/  | /'
        done
    done < <(grep -v ' Passed\.' "$1")
}

# jtreg prints "Test results: passed: N; failed: M" itself; point at the logs of failures.
summary="$workdir/report/text/summary.txt"
if [ "$status" -ne 0 ] && [ -f "$summary" ]; then
    echo "jtreg: tests that did not pass (logs in $workdir/work/<test>.jtr):"
    grep -v ' Passed\.' "$summary" | sed 's/^/  /' || true
    print_crash_reports "$summary"
fi
echo "jtreg: JDK $jdk: exit status $status"
exit "$status"
