# platform-steps.sh: what scripts/cross-arm64.sh and scripts/build-musl.sh share (sourced,
# not run): their steps, the results file test.sh's summary reads, CUnit's counts.
#
# The sourcing script sets `platform` (the name printed) and `results` (its results.txt)
# and defines step_NAME for each step; run_steps runs the ones asked for.

# result STEP TEXT: STEP's line of the results file ("STEP: TEXT"), an earlier one replaced.
result() {
    local tmp="$results.tmp"
    { [ -f "$results" ] && grep -v "^$1: " "$results" || true; printf '%s: %s\n' "$1" "$2"; } > "$tmp"
    mv "$tmp" "$results"
}

# skip REASON: this platform cannot be tested here; says why, exits 77.
skip() {
    echo "$platform: SKIPPED: $*" >&2
    printf 'skipped: %s\n' "$*" > "$results"
    exit 77
}

step_start() {
    step_t0=$(date +%s)
    echo "== $platform: $1"
}
step_secs() { echo $(( $(date +%s) - step_t0 )); }

# cunit_counts LOG: the sum of the "tests" rows of every CUnit Run Summary in a ctest log.
cunit_counts() {
    awk '$1 == "tests" { passed += $4; failed += $5; skipped += $6 }
         END { printf "%d passed, %d failed, %d skipped", passed, failed, skipped }' "$1"
}

# debian_mirror: the system's own Debian mirror (the first URIs: of its sources).
debian_mirror() {
    local mirror
    mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    echo "${mirror:-http://deb.debian.org/debian}"
}

# run_ctest BUILD [ENV=VALUE...]: the unit tests of a build directory; the result line "unit".
run_ctest() {
    local dir=$1 status=0
    shift
    env "$@" ctest --test-dir "$dir" --output-on-failure >"$dir/ctest.log" 2>&1 || status=1
    tail -n 4 "$dir/ctest.log"
    # The failed tests, and CUnit's line for each failed assertion (file:line - condition):
    # CI keeps only what is printed, not the build directory.
    [ $status -eq 0 ] || grep -E 'Failed|\*\*\*|^ +[0-9]+\. [^ ]+:[0-9]+ +- ' "$dir/ctest.log" >&2 || true
    local log=$dir/Testing/Temporary/LastTest.log
    result unit "$(cunit_counts "$log") ($(step_secs) s; log $log)"
    return $status
}

# run_steps "NEEDED..." "ALL..." ASKED...: runs the steps asked for ("all" or none: ALL, in
# order); a failure of one of NEEDED (steps the later ones build on) stops the run. Prints
# the results file; returns 1 if a step failed, 2 for an unknown step.
run_steps() {
    local needed=" $1 " all=" $2 " s status=0
    shift 2
    local steps=("$@")
    if [ ${#steps[@]} -eq 0 ] || [ "${steps[*]}" = all ]; then read -r -a steps <<< "$all"; fi
    for s in "${steps[@]}"; do
        [[ $all == *" $s "* ]] || { echo "$platform: unknown step '$s' (${all# } all)" >&2; return 2; }
    done
    for s in "${steps[@]}"; do
        if ! "step_$s"; then
            status=1
            [[ $needed == *" $s "* ]] && break
        fi
    done
    echo "== $platform results"
    cat "$results"
    return $status
}
