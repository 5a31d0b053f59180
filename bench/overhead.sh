#!/usr/bin/env bash
# overhead.sh: what heapsampler costs a Java program, next to what the JVM's sampling costs.
#
# Runs two workloads under: no agent; the floor agent (bench/floor_agent.c) in modes nop and
# stack; heapsampler live=false and live=true with the rate cap at 1000/s (live=true at 512k:
# the default options), and both again with rate=0 (no cap); each agent at every interval in
# $INTERVALS. heapsampler runs at log=info,
# and the samples it kept per second (its rate-cap status line) are printed per configuration.
# Before the timed rounds, untimed accuracy runs of allocmix compare the profile's alloc_space
# total (format=collapsed,live=false) with the bytes the workload's threads allocated
# (ThreadMXBean), at every rate in $ACCURACY_RATES.
# Workloads: allocmix (bench/AllocMix.java, synthetic, 2 threads) and javac (the JDK's javac
# compiling the java/util sources of openjdk-17-source, fetched with apt-get download).
#
# Measurement: PAIRS rounds; each round runs every configuration once, in an order rotated by
# one every round, so each configuration's run sits next to a baseline run of the same round
# and drift on the machine is spread over all of them. Per configuration it prints the median
# over the rounds of CPU(config)/CPU(no agent) with min-max, then the same for wall time, then
# (heapsampler rows) CPU(heapsampler)/CPU(stack floor at the same interval) of the same round.
# CPU = user+sys of the java process tree (bash `times` deltas); wall = $EPOCHREALTIME deltas.
#
# Usage: bench/overhead.sh [path/to/libheapsampler.so]    (default <repo>/build/libheapsampler.so,
#        built with cmake if absent)
# Knobs (environment): PAIRS=5  QUICK=1 (= PAIRS=2)  INTERVALS="512k 32k"
#        KINDS="nop stack hs-nolive hs-live hs-nolive-nocap hs-live-nocap" (also: weak;
#        hs-live-fixed = hs-live with adapt_interval=false: the cap never raises the JVM's interval;
#        hs-default = heapsampler at its default options, interval= not given (the interval
#        alone ignored); minimal = the floor agent's weak mode at MINIMAL_INTERVAL (8m: about
#        the samples heapsampler keeps on allocmix), the least a live-heap profiler keeping as
#        many stacks can cost (the interval ignored); asprof = async-profiler's agent with
#        event=alloc,alloc=<interval> (its default interval is 512k), built from the checkout
#        in ASYNC_PROFILER_SRC; asprof-live = the same with live: async-profiler's live-heap
#        mode, which keeps a weak ref per sample and reports the survivors at the end)
#        MINIMAL_INTERVAL=8m  ASYNC_PROFILER_SRC=<a checkout of async-profiler, for asprof>
#        WORKLOADS="allocmix javac"  ACCURACY_RATES="1000/s 500/s 0" (empty: no accuracy runs)
#        ALLOCMIX_STEPS=12000000  JAVA_HOME=<JDK>  WORK=/tmp/heapsampler-bench
#        JDK_SRC_ZIP=<a src.zip to take java/util from instead of apt-get download>
#        REPORT=<an earlier run's results .tsv>: print its tables again, measure nothing
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

print_usage_if_asked "${1:-}"

AGENT=$(find_agent "${1:-}") || exit 1
JAVA_HOME=$(find_java_home) || exit 1
JAVA=$JAVA_HOME/bin/java
PAIRS=${PAIRS:-5}
[ "${QUICK:-0}" = 1 ] && PAIRS=2
INTERVALS=${INTERVALS:-512k 32k}
KINDS=${KINDS:-nop stack hs-nolive hs-live hs-nolive-nocap hs-live-nocap}
ACCURACY_RATES=${ACCURACY_RATES-1000/s 500/s 0}
WORKLOADS=${WORKLOADS:-allocmix javac}
ALLOCMIX_STEPS=${ALLOCMIX_STEPS:-12000000}
WORK=${WORK:-${TMPDIR:-/tmp}/heapsampler-bench}
RUN_DIR=$WORK/run
mkdir -p "$WORK" "$RUN_DIR" || die "cannot create $WORK"

MINIMAL_INTERVAL=${MINIMAL_INTERVAL:-8m}

# --- preparation -------------------------------------------------------------------------
FLOOR=$WORK/floor_agent.so
build_floor_agent "$JAVA_HOME" "$FLOOR"
case " $KINDS " in *" asprof "* | *" asprof-live "*)
    [ -n "${ASYNC_PROFILER_SRC:-}" ] || die "KINDS has asprof or asprof-live: set ASYNC_PROFILER_SRC to a checkout of async-profiler"
    ASPROF=$(build_async_profiler "$ASYNC_PROFILER_SRC" "$JAVA_HOME") || exit 1
    ;;
esac
compile_workload "$JAVA_HOME" AllocMix "$WORK/classes"

# The java/util sources for the javac workload, as $JAVAC_SRC/patch/java/util/*.java plus an
# @-file listing them. Only the listed files go in the patch directory: with a whole source
# tree there, javac would also compile every class they reference.
JAVAC_SRC=$WORK/javac-src
prepare_javac_sources() {
    [ -s "$JAVAC_SRC/files.list" ] && return 0
    local zip=${JDK_SRC_ZIP:-}
    if [ -z "$zip" ] && [ -f "$(readlink -f "$JAVA_HOME/lib/src.zip")" ]; then
        zip=$(readlink -f "$JAVA_HOME/lib/src.zip")
    fi
    if [ -z "$zip" ]; then
        # Debian's JDK keeps its sources in openjdk-17-source, which may depend on a newer JDK
        # than the one installed: download and unpack the .deb instead of installing it.
        local major deb_dir=$WORK/deb
        major=$(java_version "$JAVA_HOME" | cut -d. -f1)
        mkdir -p "$deb_dir"
        if [ -z "$(find "$deb_dir" -maxdepth 1 -name "openjdk-$major-source_*.deb")" ]; then
            note "fetching openjdk-$major-source with apt-get download"
            (cd "$deb_dir" && apt-get download "openjdk-$major-source") ||
                { [ "$(id -u)" = 0 ] && apt-get update >/dev/null &&
                    (cd "$deb_dir" && apt-get download "openjdk-$major-source"); } ||
                die "apt-get download openjdk-$major-source failed (run apt-get update, or set JDK_SRC_ZIP)"
        fi
        dpkg-deb -x "$(find "$deb_dir" -maxdepth 1 -name "openjdk-$major-source_*.deb" | sort | tail -1)" "$deb_dir/root" ||
            die "unpacking openjdk-$major-source failed"
        zip=$(find "$deb_dir/root" -name src.zip | head -1)
        [ -n "$zip" ] || die "no src.zip in openjdk-$major-source"
    fi
    rm -rf "$JAVAC_SRC" && mkdir -p "$JAVAC_SRC/unzipped" "$JAVAC_SRC/patch/java/util"
    (cd "$JAVAC_SRC/unzipped" && "$JAVA_HOME/bin/jar" xf "$zip" java.base/java/util/) ||
        die "extracting java/util from $zip failed"
    cp "$JAVAC_SRC"/unzipped/java.base/java/util/*.java "$JAVAC_SRC/patch/java/util/" ||
        die "no java/util sources in $zip"
    rm -rf "$JAVAC_SRC/unzipped"
    ls "$JAVAC_SRC"/patch/java/util/*.java >"$JAVAC_SRC/files.list"
    note "javac workload: $(wc -l <"$JAVAC_SRC/files.list") java/util sources from $zip"
}
case " $WORKLOADS " in *" javac "*) prepare_javac_sources ;; esac

# --- configurations and workloads ----------------------------------------------------------
CONFIGS=(none)
for interval in $INTERVALS; do
    for kind in $KINDS; do CONFIGS+=("$kind-$interval"); done
done

# Sets AGENT_ARGS to the -agentpath option of a configuration (none for "none").
set_agent_args() {
    local kind=${1%-*} interval=${1##*-}
    AGENT_ARGS=()
    case "$kind" in
    none) ;;
    nop | stack | weak | count) AGENT_ARGS=("-agentpath:$FLOOR=mode=$kind,interval=$interval") ;;
    hs-nolive) AGENT_ARGS=("-agentpath:$AGENT=interval=$interval,live=false,rate=1000/s,log=info,file=$RUN_DIR/hs-%p.pb.gz") ;;
    hs-live) AGENT_ARGS=("-agentpath:$AGENT=interval=$interval,live=true,rate=1000/s,log=info,file=$RUN_DIR/hs-%p.pb.gz") ;;
    hs-nolive-nocap) AGENT_ARGS=("-agentpath:$AGENT=interval=$interval,live=false,rate=0,log=info,file=$RUN_DIR/hs-%p.pb.gz") ;;
    hs-live-nocap) AGENT_ARGS=("-agentpath:$AGENT=interval=$interval,live=true,rate=0,log=info,file=$RUN_DIR/hs-%p.pb.gz") ;;
    hs-live-fixed) AGENT_ARGS=("-agentpath:$AGENT=interval=$interval,live=true,rate=1000/s,adapt_interval=false,log=info,file=$RUN_DIR/hs-%p.pb.gz") ;;
    hs-default) AGENT_ARGS=("-agentpath:$AGENT=log=info,file=$RUN_DIR/hs-%p.pb.gz") ;;
    minimal) AGENT_ARGS=("-agentpath:$FLOOR=mode=weak,interval=$MINIMAL_INTERVAL") ;;
    asprof) AGENT_ARGS=("-agentpath:$ASPROF=start,event=alloc,alloc=$interval,collapsed,file=$RUN_DIR/asprof-%p.collapsed") ;;
    asprof-live) AGENT_ARGS=("-agentpath:$ASPROF=start,event=alloc,alloc=$interval,live,collapsed,file=$RUN_DIR/asprof-%p.collapsed") ;;
    accuracy) AGENT_ARGS=("-agentpath:$AGENT=interval=$interval,live=false,format=collapsed,log=info,file=$RUN_DIR/hs-%p.collapsed$ACCURACY_OPTION") ;;
    *) die "unknown configuration kind '$kind' (KINDS takes nop stack weak hs-nolive hs-live hs-nolive-nocap hs-live-nocap hs-live-fixed hs-default minimal asprof asprof-live)" ;;
    esac
}

# Runs one workload under one configuration, measured; dies if the run failed.
run_workload() {
    local workload=$1 config=$2
    set_agent_args "$config"
    RUN_OUT=$RUN_DIR/out RUN_ERR=$RUN_DIR/err
    rm -rf "$RUN_DIR"/hs-*.pb.gz "$RUN_DIR"/hs-*.collapsed "$RUN_DIR"/asprof-* "$RUN_DIR/javac-out"
    case "$workload" in
    allocmix)
        run_measured "$JAVA" "${AGENT_ARGS[@]}" -Xms1g -Xmx1g -XX:+UseG1GC -cp "$WORK/classes" AllocMix "$ALLOCMIX_STEPS"
        [ "$RUN_RC" = 0 ] && grep -q '^AllocMix checksum' "$RUN_OUT"
        ;;
    javac)
        mkdir -p "$RUN_DIR/javac-out"
        run_measured "$JAVA" "${AGENT_ARGS[@]}" -m jdk.compiler/com.sun.tools.javac.Main -proc:none -nowarn \
            -d "$RUN_DIR/javac-out" --patch-module "java.base=$JAVAC_SRC/patch" "@$JAVAC_SRC/files.list"
        [ "$RUN_RC" = 0 ] && [ -f "$RUN_DIR/javac-out/java/util/HashMap.class" ]
        ;;
    *) die "unknown workload '$workload' (WORKLOADS takes allocmix javac)" ;;
    esac || { tail -20 "$RUN_ERR" >&2; die "$workload under $config failed (exit $RUN_RC)"; }
    case "$config" in hs-* | accuracy-*)
        ls "$RUN_DIR"/hs-* >/dev/null 2>&1 || die "$workload under $config wrote no profile"
        ;;
    asprof-*)
        ls "$RUN_DIR"/asprof-* >/dev/null 2>&1 || die "$workload under $config wrote no profile"
        ;;
    esac
}

workload_title() {
    case "$1" in
    allocmix) echo "allocmix: bench/AllocMix.java, 2 threads x $ALLOCMIX_STEPS steps, -Xms1g -Xmx1g G1" ;;
    javac) echo "javac: compiling $(wc -l <"$JAVAC_SRC/files.list") java/util sources (-proc:none)" ;;
    esac
}

# --- measuring -------------------------------------------------------------------------------
# Samples heapsampler kept per second of the last run (its rate-cap status line at log=info;
# with rate=0 every sample is kept: recorded samples / the run's wall time). "" for others.
kept_per_second() {
    awk -v wall="$RUN_WALL" '
        /^heapsampler: rate cap: .* effective rate / { for (i = 1; i < NF; i++) if ($i == "rate" && $(i - 1) == "effective") r = $(i + 1) }
        /^heapsampler: samples: [0-9]+ recorded/ { n = $3 }
        END { if (r != "") print r; else if (n != "") printf "%.1f", n / wall }' "$RUN_ERR"
}

# Untimed: allocmix's alloc_space total over the bytes its threads allocated, per interval
# and rate, into $ACCURACY.
measure_accuracy() {
    local interval rate
    for interval in $INTERVALS; do
        for rate in $ACCURACY_RATES; do
            ACCURACY_OPTION=""
            [ "$rate" = default ] || ACCURACY_OPTION=",rate=$rate"
            run_workload allocmix "accuracy-$interval"
            printf '%s\t%s\t%s\t%s\t%s\n' "$interval" "$rate" \
                "$(awk '{ s += $NF } END { printf "%.0f", s }' "$RUN_DIR"/hs-*.collapsed)" \
                "$(awk '/^AllocMix allocated / { print $3 }' "$RUN_OUT")" "$(kept_per_second)" >>"$ACCURACY"
            note "accuracy $interval rate=$rate: $(tail -1 "$ACCURACY")"
        done
    done
}

# Runs every round of every workload, appending to $RESULTS and $SAMPLES.
measure() {
    local workload interval round i config
    printf "workload\tround\tconfig\tcpu_s\twall_s\tkept_per_s\n" >"$RESULTS"
    : >"$SAMPLES"
    note "agent: $AGENT"
    note "JDK: $JAVA_HOME ($(java_version "$JAVA_HOME")); $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    note "$PAIRS rounds x ${#CONFIGS[@]} configurations per workload; raw results in $RESULTS"
    for workload in $WORKLOADS; do
        # Untimed first runs: warm the page cache and count the samples taken at each interval.
        for interval in $INTERVALS; do
            run_workload "$workload" "count-$interval"
            printf '%s\t%s\t%s\t%s\n' "$workload" "$interval" \
                "$(awk '/^floor_agent: [0-9]+ samples/ { print $2 }' "$RUN_ERR")" "$RUN_CPU" >>"$SAMPLES"
        done
        [ "$workload" = allocmix ] && measure_accuracy
        for ((round = 0; round < PAIRS; round++)); do
            for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
                config=${CONFIGS[(i + round) % ${#CONFIGS[@]}]}
                run_workload "$workload" "$config"
                printf '%s\t%d\t%s\t%s\t%s\t%s\n' "$workload" "$round" "$config" "$RUN_CPU" "$RUN_WALL" \
                    "$(kept_per_second)" >>"$RESULTS"
                note "$workload round $((round + 1))/$PAIRS $config: cpu ${RUN_CPU}s wall ${RUN_WALL}s"
            done
        done
    done
}

RESULTS=$(results_file overhead) || exit 1
SAMPLES=${RESULTS%.tsv}-samples.tsv
ACCURACY=${RESULTS%.tsv}-accuracy.tsv
[ -n "${REPORT:-}" ] || : >"$ACCURACY"
[ -n "${REPORT:-}" ] || measure # with REPORT=, only print the tables of an earlier run

# --- summary --------------------------------------------------------------------------------
# Prints one workload's table from $SAMPLES and $RESULTS.
summarize() {
    awk -F'\t' -v wl="$1" -v configs="${CONFIGS[*]}" -v intervals="$INTERVALS" -v rounds="$PAIRS" -v minimal="$MINIMAL_INTERVAL" \
        "$AWK_STATS"'
        function label(cfg,    kind, iv) {
            iv = cfg; sub(/.*-/, "", iv); kind = cfg; sub(/-[^-]*$/, "", kind)
            if (kind == "hs-nolive") return "heapsampler live=false " iv
            if (kind == "hs-live") return "heapsampler live=true " iv
            if (kind == "hs-nolive-nocap") return "hs live=false rate=0 " iv
            if (kind == "hs-live-nocap") return "hs live=true rate=0 " iv
            if (kind == "hs-live-fixed") return "hs live=true adapt_interval=false " iv
            if (kind == "hs-default") return "heapsampler, the defaults"
            if (kind == "minimal") return "minimal agent (weak, " minimal ")"
            if (kind == "asprof") return "async-profiler event=alloc " iv
            if (kind == "asprof-live") return "async-profiler alloc,live " iv
            return "floor " kind " " iv
        }
        FILENAME == ARGV[1] && $1 == wl { samples[$2] = $3; next }
        FILENAME == ARGV[2] && $1 == wl { cpu[$3, $2] = $4; wall[$3, $2] = $5; if ($6 != "") kept[$3, ++nkept[$3]] = $6 }
        END {
            nc = split(configs, order, " ")
            ni = split(intervals, ivs, " ")
            for (r = 0; r < rounds; r++) { bc[r + 1] = cpu["none", r]; bw[r + 1] = wall["none", r] }
            printf "baseline (no agent): CPU %s s, wall %s s\n", summary(bc, rounds, "%.2f"), summary(bw, rounds, "%.2f")
            line = "samples per run:"
            for (i = 1; i <= ni; i++)
                line = line sprintf("  %s: %d (%.0f per baseline CPU-second)", ivs[i], samples[ivs[i]], samples[ivs[i]] / median(bc, rounds))
            print line
            printf "%-30s %-24s %-18s %-24s %-24s %s\n", "configuration", "CPU ratio", "CPU mean +- se", "wall ratio", "CPU vs floor stack", "samples kept/s"
            for (c = 2; c <= nc; c++) {
                cfg = order[c]; floor = cfg; sub(/^.*-/, "stack-", floor)
                kf = 0
                for (r = 0; r < rounds; r++) {
                    rc[r + 1] = cpu[cfg, r] / cpu["none", r]; rw[r + 1] = wall[cfg, r] / wall["none", r]
                    if (cfg ~ /^hs-/ && ((floor, r) in cpu)) { kf++; rf[kf] = cpu[cfg, r] / cpu[floor, r] }
                }
                nk = nkept[cfg]; for (k = 1; k <= nk; k++) kv[k] = kept[cfg, k]
                printf "%-30s %-24s %-18s %-24s %-24s %s\n", label(cfg), summary(rc, rounds, "%.3f"),
                       sprintf("%.3f +- %.3f", mean(rc, rounds), std_error(rc, rounds)),
                       summary(rw, rounds, "%.3f"), kf ? summary(rf, kf, "%.3f") : "", nk ? sprintf("%.0f", median(kv, nk)) : ""
                if (cfg == "hs-live-512k" && wl == "allocmix")
                    check[++nchecks] = sprintf("%s (default options, rate=1000/s): CPU ratio %.3f vs no agent (target: <= 1.03): %s",
                                               label(cfg), median(rc, rounds), verdict(rc, rounds, 0, 1.03))
                if (kf && cfg ~ /-32k$/)
                    check[++nchecks] = sprintf("%s: %+.1f %% CPU above floor stack 32k (target: <= 3 %%): %s",
                                               label(cfg), 100 * (median(rf, kf) - 1), verdict(rf, kf, 0, 1.03))
            }
            for (i = 1; i <= nchecks; i++) print "target check: " check[i]
            # heapsampler at its defaults against the minimal agent and async-profiler: the
            # per-round difference of CPU ratios (paired, so drift between rounds cancels)
            for (c = 2; c <= nc; c++) {
                if (order[c] !~ /^hs-default-/) continue
                for (d = 2; d <= nc; d++) {
                    if (order[d] !~ /^(minimal|asprof|asprof-live)-/) continue
                    for (r = 0; r < rounds; r++)
                        dv[r + 1] = (cpu[order[c], r] - cpu[order[d], r]) / cpu["none", r]
                    printf "%s - %s: CPU ratio difference per round %.4f +- %.4f (mean +- se), median %.4f\n",
                        label(order[c]), label(order[d]), mean(dv, rounds), std_error(dv, rounds), median(dv, rounds)
                }
            }
        }' "$SAMPLES" "$RESULTS"
}

echo
echo "heapsampler overhead: JDK $(java_version "$JAVA_HOME") on $(nproc) CPUs, $PAIRS rounds (pairs) per configuration"
echo "ratios: median (min-max) over the rounds of config/baseline measured in the same round"
for workload in $WORKLOADS; do
    echo
    echo "== $(workload_title "$workload")"
    summarize "$workload"
done
if [ -s "$ACCURACY" ]; then
    echo
    echo "== allocmix accuracy: profile alloc_space total / bytes the threads allocated (one untimed run each)"
    awk -F'\t' '{ printf "interval %-5s rate=%-8s %.4f (%.3g / %.3g bytes), %s samples kept/s\n", $1, $2, $3 / $4, $3, $4, $5 }' "$ACCURACY"
    echo "target: rate=1000/s within 2 %, rate=500/s within 10 %"
fi
echo
echo "raw results: $RESULTS"
