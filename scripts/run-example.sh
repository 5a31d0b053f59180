#!/usr/bin/env bash
# run-example.sh: builds heapsampler, runs the bundled example program under the agent,
# and shows the profile it wrote with go tool pprof.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" >/dev/null
out="$root/build/example"
mkdir -p "$out"
javac -d "$out" "$root/examples/HeapDemo.java"
profile="$out/heap.pb.gz"
java -agentpath:"$root/build/libheapsampler.so=interval=128k,file=$profile,log=info" \
     -cp "$out" HeapDemo
echo "== where memory was allocated (alloc_space)"
go tool pprof -top -nodecount=12 -sample_index=alloc_space "$profile" 2>/dev/null
echo "== what is still live (inuse_space, as of the last GC)"
go tool pprof -top -nodecount=12 -sample_index=inuse_space "$profile" 2>/dev/null
echo "profile: $profile  (try: go tool pprof -http=: $profile)"
