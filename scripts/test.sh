#!/usr/bin/env bash
# test.sh: builds heapsampler and runs every test: the CUnit suites, the unit tests again
# under ASan+UBSan and under ThreadSanitizer, a short fixed-seed run of the libFuzzer harnesses
# (test/fuzz/run.sh), and the jtreg suite on each JDK (a JDK that is absent is skipped).
# Ends with a summary: CUnit tests and jtreg tests per JDK, passed / failed / skipped, and
# where the logs and reports are. Exit status: non-zero if anything failed.
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

# CUnit: sums the "tests" rows of every suite's Run Summary in a ctest log.
cunit_counts() {
    awk '$1 == "tests" { total += $2; passed += $4; failed += $5; skipped += $6 }
         END { printf "%d passed, %d failed, %d skipped", passed, failed, skipped }' "$1"
}
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
    else
        printf '  jtreg %s: not run (JDK absent or jtreg missing)\n' "$jdk"
    fi
done
exit $status
