#!/usr/bin/env bash
# test.sh: builds heapsampler and runs every test: the CUnit suites, the unit tests again
# under ASan+UBSan and under ThreadSanitizer, a short fixed-seed run of the libFuzzer harnesses
# (test/fuzz/run.sh), and the jtreg suite on each JDK (a JDK that is absent is skipped).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh"
cmake -S "$root" -B "$root/build-sanitize" -DHEAPSAMPLER_SANITIZE=ON >/dev/null
cmake --build "$root/build-sanitize" -j "$(nproc)" >/dev/null
echo "== unit tests under ASan+UBSan"
ctest --test-dir "$root/build-sanitize" --output-on-failure
cmake -S "$root" -B "$root/build-tsan" -DHEAPSAMPLER_TSAN=ON >/dev/null
cmake --build "$root/build-tsan" -j "$(nproc)" >/dev/null
echo "== unit tests under ThreadSanitizer"
ctest --test-dir "$root/build-tsan" --output-on-failure
echo "== fuzzers: option parser and file-name patterns (short, fixed seed)"
"$root/test/fuzz/run.sh"
echo "== all tests (CUnit + jtreg on each JDK)"
ctest --test-dir "$root/build" --output-on-failure
