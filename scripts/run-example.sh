#!/usr/bin/env bash
# run-example.sh: builds heapsampler, runs the bundled example program under the agent,
# and shows the profile it wrote with go tool pprof (its warnings, if any, stay visible).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" >/dev/null
out="$root/build/example"
mkdir -p "$out"
javac -d "$out" "$root/examples/HeapDemo.java"
profile="$out/heap.pb.gz"
java -agentpath:"$root/build/libheapsampler.so=interval=128k,file=$profile,log=info" \
     -cp "$out" HeapDemo
# pprof repeats the profile's comments above every report: show them once (the first
# report), then only from "Type:" on. Only stdout is filtered: pprof's warnings stay visible.
pprof() { go tool pprof "$@" | awk '/^Type: /{ show = 1 } show'; }
go tool pprof -raw "$profile" | awk '/^Samples:/{ exit } { print }'
echo "== which code allocates (alloc_space; cum = the method and what it calls)"
pprof -top -cum -nodecount=12 -sample_index=alloc_space "$profile"
echo "== which code holds the live heap (inuse_space, as of the last GC)"
pprof -top -cum -nodecount=12 -sample_index=inuse_space "$profile"
echo "== who allocates the live long[] arrays (callers above, the type below)"
pprof -peek 'long\[\]' -sample_index=inuse_space "$profile"
echo "profile: $profile  (try: go tool pprof -http=: $profile)"
