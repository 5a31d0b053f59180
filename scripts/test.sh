#!/usr/bin/env bash
# test.sh: builds heapsampler and runs every test: the CUnit suites, the unit tests again
# under ASan+UBSan and under ThreadSanitizer, a short fixed-seed run of the libFuzzer harnesses
# (test/fuzz/run.sh), the jtreg suite on each JDK (a JDK that is absent is skipped), then the
# other platforms (docs/platforms.md): arm64 cross-built and tested under qemu-user
# (scripts/cross-arm64.sh: CUnit, JVM checks in the emulated arm64 JDK 17, the arm64 .deb),
# skipped, saying why, where qemu cannot be registered; and musl (scripts/build-musl.sh:
# CUnit, the agent's symbols and a musl program loading it, the static command against a
# JVM here). Ends with a summary: CUnit tests and jtreg tests per JDK, counts per platform,
# passed / failed / skipped, and where the logs and reports are. Exit status: non-zero if
# anything failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh"
cmake -S "$root" -B "$root/build-sanitize" -DHEAPSAMPLER_SANITIZE=ON >/dev/null
cmake --build "$root/build-sanitize" -j "$(nproc)" >/dev/null
status=0
echo "== unit tests under ASan+UBSan"
ctest --test-dir "$root/build-sanitize" --output-on-failure || status=1
cmake -S "$root" -B "$root/build-tsan" -DHEAPSAMPLER_TSAN=ON >/dev/null
cmake --build "$root/build-tsan" -j "$(nproc)" >/dev/null
echo "== unit tests under ThreadSanitizer"
ctest --test-dir "$root/build-tsan" --output-on-failure || status=1
echo "== fuzzers: option parser and file-name patterns (short, fixed seed)"
"$root/test/fuzz/run.sh" || status=1
echo "== all tests (CUnit + jtreg on each JDK)"
ctest --test-dir "$root/build" --output-on-failure || status=1

# The other platforms: 0 passed, 77 skipped (the script says why), anything else failed.
platform() {
    local rc=0
    "$@" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
}
echo "== platforms: the platform JVM checks natively, JDK 17 (test/platforms/jvm-checks.sh)"
platform "$root/test/platforms/jvm-checks.sh" --arch amd64 --jdk /usr/lib/jvm/java-17-openjdk-amd64 \
    --agent "$root/build/libheapsampler.so" --cli "$root/build/heapsampler" --work "$root/build/platform-checks"
echo "== platforms: arm64, cross-built, tested under qemu-user (scripts/cross-arm64.sh)"
platform "$root/scripts/cross-arm64.sh"
echo "== platforms: musl (scripts/build-musl.sh)"
platform "$root/scripts/build-musl.sh"

# CUnit: cunit_counts LOG sums the "tests" rows of every suite's Run Summary in a ctest log.
# shellcheck source=platform-steps.sh
. "$root/scripts/platform-steps.sh"
# jtreg: counts the verdicts of report/text/summary.txt (a skip is "Passed. Skipped: ...").
jtreg_counts() {
    awk '/ Passed\. Skipped/ { skipped++; next } / Passed\./ { passed++; next }
         / (Failed|Error)\./ { failed++ }
         END { printf "%d passed, %d failed, %d skipped", passed, failed, skipped }' "$1"
}

echo "== summary"
for build in build build-sanitize build-tsan; do
    log="$root/$build/Testing/Temporary/LastTest.log"
    [ -f "$log" ] && printf '  CUnit (%s): %s; log %s\n' "$build" "$(cunit_counts "$log")" "$log"
done
for work in "$root"/build/jtreg-*; do
    [ -d "$work" ] || continue
    jdk=${work##*/jtreg-}
    summary="$work/report/text/summary.txt"
    if [ -f "$summary" ]; then
        # which tests: the whole suite, or a group (docs/testing.md, "Per-JDK plan": core on JDK 11 and 21)
        group=$(grep -v '^-' "$work/report/text/cmdArgs.txt" 2>/dev/null | grep -o ':[a-z]*$' | head -n 1 || true)
        what="whole suite"
        [ -n "$group" ] && what="group ${group#:}"
        printf '  jtreg %s (%s): %s; report %s\n' "$jdk" "$what" "$(jtreg_counts "$summary")" \
            "$work/report/html/report.html"
        # hs_err files of crashed child JVMs (the deliberate one of selftest/AgentRunnerTest
        # too); run-jtreg.sh printed those of failed tests above
        crashes=$( (find "$work/crashes" -name '*hs_err_pid*.log' 2>/dev/null || true) | wc -l)
        if [ "$crashes" -gt 0 ]; then
            printf '    crash reports of child JVMs kept: %d in %s\n' "$crashes" "$work/crashes"
        fi
    else
        printf '  jtreg %s: not run (JDK absent or jtreg missing)\n' "$jdk"
    fi
done
# platform_summary NAME RESULTS: one line from the platform script's results.txt.
platform_summary() {
    local name=$1 results=$2
    if [ ! -f "$results" ]; then
        printf '  %s: not run\n' "$name"
    elif grep -q '^skipped: ' "$results"; then
        printf '  %s: SKIPPED: %s\n' "$name" "$(sed -n 's/^skipped: //p' "$results")"
    else
        printf '  %s:\n' "$name"
        sed "s/^/    /" "$results"
    fi
}
native_checks="$root/build/platform-checks/summary.txt"
printf '  x86-64 glibc (native), the platform JVM checks: %s; log %s\n' \
    "$( [ -f "$native_checks" ] && tail -n 1 "$native_checks" || echo 'not run')" "$root/build/platform-checks/checks.log"
platform_summary "arm64 (cross-built; CUnit and JVM checks under qemu-user, the root's JDK 17)" \
    "$root/build-arm64/results.txt"
platform_summary "musl (x86-64, musl 1.2.3; no musl JVM exists here: the agent is built, inspected and loaded by a musl program, never run in a JVM)" \
    "$root/build-musl/results.txt"
exit $status
