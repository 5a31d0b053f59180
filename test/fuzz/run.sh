#!/usr/bin/env bash
# run.sh: builds and runs the libFuzzer harnesses of the option parser, the file-name
# pattern expander and the HTTP endpoint's request parser, Host check and symbol lookup
# (clang with -fsanitize=fuzzer,address,undefined).
#
#   test/fuzz/run.sh            short fixed-seed run (seed 1, 100,000 inputs each, seconds):
#                               what scripts/test.sh runs
#   test/fuzz/run.sh SECONDS    each fuzzer for SECONDS with a random seed; new inputs that
#                               found new coverage are kept in test/fuzz/corpus/<name>/
#
# Crashes are written as crash-* files in the work directory named at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/build-fuzz"
mkdir -p "$out"
cc="${CLANG:-clang}"
if ! command -v "$cc" >/dev/null; then
  echo "fuzz: $cc not found (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -D_GNU_SOURCE -I"$root/include")
# A module's source by its name, in whichever floor's folder it sits (docs/design.md).
module() {
  local found
  found=$(find "$root/src" -name "$1.c" -not -path "$root/src/cli/*")
  [ -n "$found" ] || { echo "fuzz: no src/*/$1.c" >&2; exit 1; }
  echo "$found"
}
for name in options file_pattern; do
  "$cc" "${flags[@]}" -o "$out/fuzz_$name" "$root/test/fuzz/fuzz_$name.c" "$(module options)" \
      "$(module log)" "$(module text)" "$(module pyroscope_ingest)"
done
"$cc" "${flags[@]}" -o "$out/fuzz_http" "$root/test/fuzz/fuzz_http.c" "$(module http_message)" \
    "$(module legacy_heap)" "$(module text)" "$(module profile)" "$(module utf8)"
work="$(mktemp -d /tmp/heapsampler-fuzz.XXXXXX)"
for name in options file_pattern http; do
  mkdir -p "$work/$name"
  if [ $# -eq 0 ]; then
    # Fixed seed, fixed count: the same inputs on every run; new ones go to the scratch dir.
    args=(-seed=1 -runs=100000 "$work/$name" "$root/test/fuzz/corpus/$name")
  else
    args=(-max_total_time="$1" "$root/test/fuzz/corpus/$name")
  fi
  echo "== fuzz_$name ${args[*]:0:2}"
  if ! (cd "$work" && "$out/fuzz_$name" -max_len=10000 "${args[@]}" >"$work/$name.log" 2>&1); then
    tail -40 "$work/$name.log" >&2
    echo "fuzz: fuzz_$name failed; log and reproducer in $work" >&2
    exit 1
  fi
  grep -E "^Done" "$work/$name.log" || true
done
rm -rf "$work"
echo "fuzz: no crash"
