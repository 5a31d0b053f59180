#!/usr/bin/env bash
# check-layers.sh: fails when an include or a call runs upward across the agent's floors,
# or when folders lean on each other in a circle.
#
#   scripts/check-layers.sh [ROOT [BUILD]]  check the tree at ROOT (default: this repository);
#                                           with BUILD (a CMake build of it), its calls too
#   scripts/check-layers.sh --self-test     plant an upward include, an upward call and a
#                                           circle in a scratch tree, and expect each caught
#
# The floors, lowest first (docs/design.md, "Layers"); a folder's floor is its name's:
#   0 base/                      the logger, faults, bounded text, UTF-8, hashing, the clock
#   1 sampling/, heap/, profile/ the allocation callback's tables; the collector and the heap
#                                figure; the profile model every profile is built into
#   2 live/                      liveness, growth, retention paths
#   3 output/, export/           snapshot, encoders, files; the HTTP server, push
#   4 control/, src/agent.c      entry points, commands, dumps: the only code that sees hs_agent
# src/<floor>/x.c has its header at include/<floor>/x.h, and every include names the floor:
# #include "live/live_table.h". A file may include, and call, what its own floor or a lower
# one defines; folders of one floor may use each other, but no set of folders may use each
# other in a circle. src/cli/ is the operator's command, its own program: it includes only
# its own headers (beside its sources) and calls nothing of the agent.
#
# Includes are read from the sources. Calls are read from BUILD's objects, the way CMake
# names them (BUILD/CMakeFiles/<target>.dir/src/live/x.c.o): every symbol an object leaves
# undefined that another object of src/ defines (nm) is a call of that object's file.
# Objects whose source is gone (a file moved since the build) are skipped.
#
# Output: one line per fault, exit 1; a last line and exit 0 when the floors hold.
set -euo pipefail

# Known upward includes or calls, "FILE:NAME" each, with the reason it is still there (none
# today; keep it so).
ALLOWED=""

folder_floor() {
    case "$1" in
    base) echo 0 ;;
    sampling | heap | profile) echo 1 ;;
    live) echo 2 ;;
    output | export) echo 3 ;;
    control | .) echo 4 ;; # "." is src/ itself: agent.c
    cli) echo cli ;;
    *) echo "" ;;
    esac
}

# "src/live/x.c" -> "live", "include/live/x.h" -> "live", "src/agent.c" -> ".", else "".
folder_of() {
    case "$1" in
    src/*/*.[ch] | include/*/*.h) local rest=${1#*/} && echo "${rest%%/*}" ;;
    src/*.c) echo . ;;
    *) echo "" ;;
    esac
}

# Placement: every folder has a floor, every header is in its source's folder. Prints
# "F fault" lines.
check_places() {
    local root=$1 dir h name c
    for dir in "$root"/src/*/ "$root"/include/*/; do
        [ -d "$dir" ] || continue
        name=$(basename "$dir")
        [ -n "$(folder_floor "$name")" ] || echo "F ${dir#"$root"/}: a folder in no floor (give it one in check-layers.sh)"
    done
    for h in "$root"/include/*.h; do
        [ -e "$h" ] && echo "F ${h#"$root"/}: a header in no floor (move it to include/<floor>/)"
    done
    for h in "$root"/include/*/*.h; do
        [ -e "$h" ] || continue
        name=$(basename "$h" .h)
        for c in "$root"/src/*/"$name.c"; do
            [ -e "$c" ] || continue
            [ "$(folder_of "${c#"$root"/}")" = cli ] && continue
            [ "$(dirname "${c#"$root"/src/}")" = "$(dirname "${h#"$root"/include/}")" ] ||
                echo "F ${h#"$root"/}: its source is ${c#"$root"/} (move the header beside its floor)"
        done
    done
}

# "folder=floor ..." of every folder of src/ and include/, for awk.
floor_table() {
    local root=$1 dir table=""
    for dir in "$root"/src/*/ "$root"/include/*/ "$root/src/."; do
        [ -d "$dir" ] || continue
        dir=$(basename "$dir")
        table+=" $dir=$(folder_floor "$dir")"
    done
    echo "$table"
}

# Includes: prints "F fault" lines, and "E FROM TO" for an include across folders.
check_includes() {
    local root=$1
    # What a quoted include can name: our headers (include/...) and the command's (cli/...).
    local headers
    headers=$(cd "$root" && { find include -name '*.h'; find src/cli -name '*.h' 2>/dev/null; } | sort)
    (cd "$root" && find include src \( -name '*.c' -o -name '*.h' \) -print0 | sort -z |
        xargs -0 grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' || true) |
        awk -v allowed=" $ALLOWED " -v floors="$(floor_table "$root")" -v headers="$headers" '
        BEGIN {
            n = split(floors, pairs, " ")
            for (i = 1; i <= n; i++) { split(pairs[i], kv, "="); floor_of[kv[1]] = kv[2] }
            n = split(headers, h, "\n")
            for (i = 1; i <= n; i++) have[h[i]] = 1
        }
        # "src/live/x.c:#include \"live/y.h\" ..."
        {
            rel = $0; sub(/:.*/, "", rel)
            inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
            if (rel ~ /^src\/[^\/]+$/) folder = "."
            else { folder = rel; sub(/^[^\/]+\//, "", folder); if (folder !~ /\//) next; sub(/\/.*/, "", folder) }
            floor = floor_of[folder]
            if (floor == "") next # reported by check_places
            if (floor == "cli") {
                if (inc !~ /\// && ("src/cli/" inc) in have) next
                printf "F %s (cli) includes %s (the command includes only its own headers)\n", rel, inc
                next
            }
            if (inc !~ /\//) {
                if (("include/" inc) in have) printf "F %s includes %s, which names no floor\n", rel, inc
                next # else a header beside the file, or a generated one
            }
            if (!(("include/" inc) in have)) next # not one of ours
            to = inc; sub(/\/.*/, "", to)
            to_floor = floor_of[to]
            if (to_floor == "" || to_floor == "cli") next # reported by check_places
            if (to != folder) print "E", folder, to
            if (to_floor + 0 <= floor + 0) next
            if (index(allowed, " " rel ":" inc " ")) next
            printf "F %s (floor %s) includes %s (floor %s)\n", rel, floor, inc, to_floor
        }'
}

# The objects of src/ in a build whose source is still there, one a line.
objects_of() {
    local root=$1 build=$2 obj rel
    while IFS= read -r obj; do
        rel=${obj#*.dir/}
        rel=${rel%.o}
        [ -f "$root/$rel" ] && echo "$obj"
    done < <(find "$build/CMakeFiles" -path '*.dir/src/*' -name '*.c.o' | sort)
}

# Calls: prints "F fault" lines, and "E FROM TO" for a call across folders.
check_calls() {
    local root=$1 build=$2 floors
    local -a objects
    mapfile -t objects < <(objects_of "$root" "$build")
    floors=$(floor_table "$root")
    { nm -A -g --defined-only "${objects[@]}" | sed 's/^/D /'; nm -A -u "${objects[@]}" | sed 's/^/U /'; } |
        awk -v allowed=" $ALLOWED " -v floors="$floors" '
        BEGIN {
            n = split(floors, pairs, " ")
            for (i = 1; i <= n; i++) { split(pairs[i], kv, "="); floor_of[kv[1]] = kv[2] }
        }
        # "D build/CMakeFiles/hs_core.dir/src/live/x.c.o:0000 T name", "U ...o:   U name"
        {
            obj = $2; sub(/:.*/, "", obj)
            src = obj; sub(/^.*\.dir\//, "", src); sub(/\.o$/, "", src)
            dir = src; sub(/^src\//, "", dir)
            dir = dir ~ /\// ? substr(dir, 1, index(dir, "/") - 1) : "."
        }
        $1 == "D" && NF >= 4 { file[$NF] = src; folder[$NF] = dir; next }
        $1 == "U" { uses[++nuses] = src " " dir " " $NF }
        END {
            for (i = 1; i <= nuses; i++) {
                split(uses[i], u, " ")
                from = u[1]; from_folder = u[2]; sym = u[3]
                if (!(sym in file) || file[sym] == from) continue
                to_folder = folder[sym]
                from_floor = floor_of[from_folder]; to_floor = floor_of[to_folder]
                if (from_floor == "" || to_floor == "") continue # reported by check_places
                if (from_floor == "cli" || to_floor == "cli") {
                    if (from_floor != to_floor)
                        printf "F %s (cli) calls %s of %s: the command links none of the agent\n", from, sym, file[sym]
                    continue
                }
                if (from_folder != to_folder) print "E", from_folder, to_folder
                if (to_floor + 0 <= from_floor + 0) continue
                if (index(allowed, " " from ":" sym " ")) continue
                printf "F %s (floor %s) calls %s of %s (floor %s)\n", from, from_floor, sym, file[sym], to_floor
            }
        }'
}

# Circles among folders, from "FROM TO" edges on stdin. Prints one fault naming them.
check_circles() {
    local edges loop
    edges=$(sort -u)
    [ -n "$edges" ] || return 0
    loop=$(tsort <<<"$edges" 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v "input contains a loop" || true)
    [ -z "$loop" ] || echo "folders that use each other in a circle: $(tr '\n' ' ' <<<"$loop")"
}

check_tree() {
    local root=$1 build=${2:-} found faults
    found=$({
        check_places "$root"
        check_includes "$root"
        if [ -n "$build" ]; then check_calls "$root" "$build"; fi
    })
    faults=$({
        sed -n 's/^F //p' <<<"$found"
        sed -n 's/^E //p' <<<"$found" | check_circles
    })
    [ -z "$faults" ] && return 0
    echo "$faults"
    return 1
}

self_test() {
    local tmp out cc=${CC:-cc}
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    local root=$tmp/tree build=$tmp/tree/build
    mkdir -p "$root"/include/{control,sampling,output,export} "$root"/src/{control,sampling,output,export,cli}
    # A clean tree: control calls and includes sampling; the command keeps to itself.
    printf 'void hs_low(void);\n' >"$root/include/sampling/low.h"
    printf 'void hs_high(void);\n' >"$root/include/control/high.h"
    printf '#include "sampling/low.h"\nvoid hs_low(void) {}\n' >"$root/src/sampling/low.c"
    printf '#include "control/high.h"\n#include "sampling/low.h"\nvoid hs_high(void) { hs_low(); }\n' >"$root/src/control/high.c"
    printf '' >"$root/include/output/out.h"
    printf '' >"$root/include/export/exp.h"
    printf '#include "output/out.h"\n' >"$root/src/output/out.c"
    printf '#include "export/exp.h"\n' >"$root/src/export/exp.c"
    printf '#include "cli.h"\n' >"$root/src/cli/cli.c"
    printf '' >"$root/src/cli/cli.h"
    compile() { # SOURCE under src/, into the object CMake would make of it
        mkdir -p "$(dirname "$build/CMakeFiles/hs_core.dir/src/$1.o")"
        "$cc" -c -I"$root/include" -o "$build/CMakeFiles/hs_core.dir/src/$1.o" "$root/src/$1"
    }
    compile sampling/low.c && compile control/high.c
    if ! out=$(check_tree "$root" "$build"); then
        echo "self-test: a clean tree was reported: $out"
        return 1
    fi
    # An upward call with no upward include (declared by hand, as a careless edit would).
    printf 'void hs_high(void);\nvoid hs_low(void) { hs_high(); }\n' >"$root/src/sampling/low.c"
    compile sampling/low.c
    if out=$(check_tree "$root" "$build"); then
        echo "self-test: an upward call was not caught"
        return 1
    fi
    grep -q "src/sampling/low.c (floor 1) calls hs_high of src/control/high.c (floor 4)" <<<"$out" || {
        echo "self-test: unexpected report of an upward call: $out"
        return 1
    }
    # Without the build the call is not seen: the includes alone hold.
    check_tree "$root" >/dev/null || { echo "self-test: the includes of the call's tree were reported"; return 1; }
    # Upward includes, a header outside its floor, the command including the agent, and two
    # folders of one floor including each other.
    printf '#include "sampling/low.h"\n#include "control/high.h"\nvoid hs_low(void) {}\n' >"$root/src/sampling/low.c"
    compile sampling/low.c
    printf '#include "sampling/low.h"\n' >"$root/src/cli/cli.c"
    printf '' >"$root/include/flat.h"
    printf '#include "output/out.h"\n' >"$root/src/export/exp.c"
    printf '#include "export/exp.h"\n' >"$root/src/output/out.c"
    if out=$(check_tree "$root" "$build"); then
        echo "self-test: upward includes were not caught"
        return 1
    fi
    local expect
    for expect in "src/sampling/low.c (floor 1) includes control/high.h (floor 4)" \
        "src/cli/cli.c (cli) includes sampling/low.h" \
        "include/flat.h: a header in no floor" \
        "folders that use each other in a circle: "; do
        grep -qF "$expect" <<<"$out" || {
            echo "self-test: '$expect' missing from the report: $out"
            return 1
        }
    done
    grep -q "circle: .*export" <<<"$out" && grep -q "circle: .*output" <<<"$out" || {
        echo "self-test: the circle is not named: $out"
        return 1
    }
    echo "self-test: an upward call, upward includes and a circle caught"
}

if [ "${1:-}" = --self-test ]; then
    self_test
    exit $?
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build=${2:-}
[ -d "$root/include" ] && [ -d "$root/src" ] || { echo "layers: no include/ and src/ under $root"; exit 2; }
if [ -n "$build" ] && [ -z "$(objects_of "$root" "$build")" ]; then
    echo "layers: no objects of src/ under $build/CMakeFiles (build it first)"
    exit 2
fi
rc=0
check_tree "$root" "$build" || rc=$?
if [ $rc -eq 0 ]; then
    echo "layers: no include${build:+ or call} runs upward, no circle"
else
    echo "layers: the floors do not hold (see docs/design.md, 'Layers')"
    exit 1
fi
