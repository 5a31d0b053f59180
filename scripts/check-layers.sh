#!/usr/bin/env bash
# check-layers.sh: fails when an include runs upward across the agent's layers.
#
#   scripts/check-layers.sh [ROOT]      check the tree at ROOT (default: this repository)
#   scripts/check-layers.sh --self-test check that a planted upward include is caught
#
# The layers, lowest first (docs/design.md):
#   0 base     headers with no .c of their own (hash.h, sampled.h, wall_clock.h), and the
#              leaf utilities listed in BASE below (logging, fault injection, the option
#              table, bounded text): any module may include them, and they include only base
#   1 sampling/, heap/     the allocation callback's tables; the collector and the heap figure
#   2 live/, output/, export/   liveness and growth; profiles and encoders; the HTTP server
#   3 control/, agent.c    entry points, commands, dumps: the only code that sees hs_agent
# A file may include headers of its own layer or below. include/X.h belongs to the folder
# that holds X.c (agent.h: agent.c, layer 3), and is checked as a file of that layer too.
# src/cli/ is the operator's command, its own program: it includes only src/cli/ headers.
#
# Output: one line per upward include ("FILE (layer) includes HEADER (layer)"), exit 1;
# nothing and exit 0 when the layering holds.
set -euo pipefail

# Leaf utilities that sit in a higher folder but are base: they include only base headers
# (the check verifies that of their .c and .h too).
BASE="log.h faults.h options.h text.h pyroscope_ingest.h"

# Known upward includes, each with the reason it is still there (none today; keep it so).
ALLOWED=""

folder_layer() {
    case "$1" in
    sampling | heap) echo 1 ;;
    live | output | export) echo 2 ;;
    control | .) echo 3 ;; # "." is src/ itself: agent.c
    *) echo "" ;;
    esac
}

check_tree() {
    local root=$1 failed=0
    declare -A layer_of # header name -> layer
    local h base c dir
    for h in "$root"/include/*.h; do
        base=$(basename "$h")
        c=$(find "$root/src" -mindepth 1 -maxdepth 2 -name "${base%.h}.c" -not -path "*/cli/*" | head -n 1)
        if [[ " $BASE " == *" $base "* || -z "$c" ]]; then
            layer_of[$base]=0
        else
            dir=$(dirname "${c#"$root"/src/}")
            layer_of[$base]=$(folder_layer "$dir")
        fi
    done
    local file rel layer inc inc_layer
    while IFS= read -r file; do
        rel=${file#"$root"/}
        case "$rel" in
        include/*.h) layer=${layer_of[$(basename "$rel")]} ;;
        src/cli/*) layer=cli ;;
        src/*/*.c)
            base=$(basename "$rel" .c).h
            dir=$(basename "$(dirname "$rel")")
            if [[ " $BASE " == *" $base "* ]]; then layer=0; else layer=$(folder_layer "$dir"); fi
            ;;
        src/*.c) layer=3 ;;
        *) continue ;;
        esac
        [ -n "$layer" ] || { echo "$rel: in no layer (add its folder to check-layers.sh)"; failed=1; continue; }
        while IFS= read -r inc; do
            if [ "$layer" = cli ]; then
                [ -f "$root/src/cli/$inc" ] && continue
                echo "$rel (cli) includes $inc (the command links none of the agent's modules)"
                failed=1
                continue
            fi
            inc_layer=${layer_of[$inc]:-}
            [ -n "$inc_layer" ] || continue # a header outside include/ (system, generated)
            ((inc_layer > layer)) || continue
            [[ " $ALLOWED " == *" $rel:$inc "* ]] && continue
            echo "$rel (layer $layer) includes $inc (layer $inc_layer)"
            failed=1
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
    done < <(find "$root/include" "$root/src" \( -name "*.c" -o -name "*.h" \) | sort)
    return $failed
}

self_test() {
    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    mkdir -p "$tmp/include" "$tmp/src/control" "$tmp/src/sampling" "$tmp/src/cli"
    printf '' >"$tmp/include/high.h"
    printf '' >"$tmp/include/low.h"
    printf '#include "high.h"\n' >"$tmp/src/control/high.c"
    printf '#include "low.h"\n' >"$tmp/src/sampling/low.c"
    printf '#include "cli.h"\n' >"$tmp/src/cli/cli.c"
    printf '' >"$tmp/src/cli/cli.h"
    if ! check_tree "$tmp" >/dev/null; then
        echo "self-test: a clean tree was reported"
        return 1
    fi
    printf '#include "low.h"\n#include "high.h"\n' >"$tmp/src/sampling/low.c"
    printf '#include "low.h"\n' >"$tmp/src/cli/cli.c"
    local out
    if out=$(check_tree "$tmp"); then
        echo "self-test: an upward include was not caught"
        return 1
    fi
    grep -q "src/sampling/low.c (layer 1) includes high.h (layer 3)" <<<"$out" &&
        grep -q "src/cli/cli.c (cli) includes low.h" <<<"$out" || {
        echo "self-test: unexpected report: $out"
        return 1
    }
    echo "self-test: upward includes caught"
}

if [ "${1:-}" = --self-test ]; then
    self_test
    exit $?
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[ -d "$root/include" ] && [ -d "$root/src" ] || { echo "layers: no include/ and src/ under $root"; exit 2; }
if check_tree "$root"; then
    echo "layers: no include runs upward"
else
    echo "layers: upward includes found (see docs/design.md, 'Layers')"
    exit 1
fi
