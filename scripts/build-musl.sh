#!/usr/bin/env bash
# build-musl.sh: builds heapsampler against musl libc (Debian's musl-tools, musl 1.2.3) and
# tests what can be tested without a musl JVM (none can be installed on Debian). Part of
# scripts/test.sh; runnable alone, step by step:
#
#   scripts/build-musl.sh [all|deps|build|unit|inspect|cli]...     (default: all)
#
#   deps     zlib and CUnit for musl, from Debian's own source packages (zlib, cunit),
#            fetched through a private apt state (the system's apt sources are not touched)
#            and built static with musl-gcc into $HEAPSAMPLER_MUSL_CACHE/prefix (default
#            /var/cache/heapsampler-musl); kept between runs
#   build    agent, command and CUnit tests into build-musl/ (CC=musl-gcc; executables
#            static, so the command runs in any Linux container: build-musl/heapsampler)
#   unit     the CUnit tests, linked with musl
#   inspect  the musl agent needs nothing but musl's libc: NEEDED only libc.so, no symbol
#            versions (glibc's GLIBC_2.x), every undefined symbol defined by musl's libc.so;
#            a musl program dlopen()s it (RTLD_NOW) and finds Agent_OnLoad/OnAttach/OnUnload
#   cli      the static musl command lists, loads (the host's glibc agent, --lib), tops and
#            dumps a JVM on the host (test/platforms/jvm-checks.sh --only command)
#
# Writes build-musl/results.txt, one line per step, for test.sh's summary. Exit status 0
# when everything passed, 1 when something failed, 77 when musl-gcc is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=${HEAPSAMPLER_MUSL_BUILD:-$root/build-musl}
cache=${HEAPSAMPLER_MUSL_CACHE:-/var/cache/heapsampler-musl}
prefix=$cache/prefix
host_agent=${HEAPSAMPLER_HOST_AGENT:-$root/build/libheapsampler.so}
host_jdk=${HOST_JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
musl_libc=/usr/lib/x86_64-linux-musl/libc.so
results=$build/results.txt

platform=musl
# shellcheck source=platform-steps.sh
. "$root/scripts/platform-steps.sh"
mkdir -p "$build"

# apt_private ARGS...: apt-get on the private deb-src list and state (never the system's).
apt_private() {
    apt-get -o Dir::Etc::SourceList="$cache/apt/sources.list" -o Dir::Etc::SourceParts=- \
        -o Dir::State::Lists="$cache/apt/lists" -o Dir::Cache="$cache/apt/cache" \
        -o APT::Sandbox::User=root "$@"
}

deps_stamp() { printf 'zlib %s cunit %s\n' "$1" "$2"; }

step_deps() {
    step_start "zlib and CUnit for musl ($prefix)"
    mkdir -p "$cache" 2>/dev/null || skip "cannot create $cache (not root?): zlib and CUnit for musl not built"
    exec 9>"$cache/.lock"
    flock 9
    if [ -f "$prefix/.built" ] && [ -f "$prefix/lib/libz.a" ] && [ -f "$prefix/lib/libcunit.a" ]; then
        result deps "cached ($(cat "$prefix/.built")), $(step_secs) s"
        exec 9>&-
        return 0
    fi
    local mirror src=$cache/src log=$cache/deps.log
    mirror=$(debian_mirror)
    mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" \
        > "$cache/apt/sources.list"
    rm -rf "$src" "$prefix" && mkdir -p "$src"
    if ! { apt_private update -qq && (cd "$src" && apt_private source --download-only -qq zlib cunit \
           && dpkg-source -x zlib_*.dsc zlib && dpkg-source -x cunit_*.dsc cunit); } >"$log" 2>&1; then
        tail -20 "$log" >&2
        result deps "FAILED: fetching Debian's zlib and cunit sources (log $log)"
        return 1
    fi
    # Static, position-independent: linked into the agent (a shared object) and the tests.
    if ! { (cd "$src/zlib" && CC=musl-gcc CFLAGS="-O2 -fPIC" ./configure --static --prefix="$prefix" \
              && make -j "$(nproc)" libz.a && make install) \
           && (cd "$src/cunit" && CC=musl-gcc CFLAGS="-O2 -fPIC" ./configure --prefix="$prefix" \
                  --disable-shared --enable-static --disable-curses \
              && make -C CUnit -j "$(nproc)" && make -C CUnit install); } >>"$log" 2>&1; then
        tail -20 "$log" >&2
        result deps "FAILED: building zlib or CUnit with musl-gcc (log $log)"
        return 1
    fi
    deps_stamp "$(cd "$src" && ls zlib_*.dsc | sed 's/zlib_\(.*\)\.dsc/\1/')" \
        "$(cd "$src" && ls cunit_*.dsc | sed 's/cunit_\(.*\)\.dsc/\1/')" > "$prefix/.built"
    exec 9>&-
    result deps "built ($(cat "$prefix/.built")), $(step_secs) s"
}

# kernel_headers: a directory of the kernel's UAPI headers (linux/, asm/, asm-generic/) for
# musl-gcc, which sees no header outside musl's own; the command needs <linux/openat2.h> and
# <linux/capability.h>. They are the kernel's, not glibc's (what Alpine's linux-headers holds):
# links to the host's copies, so nothing of glibc comes in.
kernel_headers() {
    local dir=$build/kernel-headers arch
    arch=$(gcc -print-multiarch)
    mkdir -p "$dir"
    ln -sfn /usr/include/linux "$dir/linux"
    ln -sfn /usr/include/asm-generic "$dir/asm-generic"
    ln -sfn "/usr/include/$arch/asm" "$dir/asm"
    echo "$dir"
}

step_build() {
    step_start "musl build (build-musl)"
    local headers
    headers=$(kernel_headers)
    if ! { cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=musl-gcc -DZLIB_ROOT="$prefix" \
              -DCMAKE_C_FLAGS="-isystem $headers" \
              -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXE_LINKER_FLAGS=-static -DHEAPSAMPLER_JTREG=OFF \
              -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/cmake.log" 2>&1 \
           && cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1; }; then
        tail -n 30 "$build/cmake.log" "$build/build.log" >&2
        result build "FAILED (logs $build/cmake.log, $build/build.log)"
        return 1
    fi
    if grep -q 'warning:' "$build/build.log"; then
        grep 'warning:' "$build/build.log" >&2
        result build "FAILED: warnings (log $build/build.log)"
        return 1
    fi
    if ! file -b "$build/heapsampler" | grep -q 'statically linked'; then
        result build "FAILED: build-musl/heapsampler is not static: $(file -b "$build/heapsampler")"
        return 1
    fi
    result build "agent and static command with musl-gcc, no warning, $(step_secs) s"
}

step_unit() {
    step_start "CUnit (musl)"
    run_ctest "$build"
}

step_inspect() {
    step_start "the musl agent needs only musl's libc"
    local agent=$build/libheapsampler.so problems=() needed versions undefined missing
    needed=$(readelf -d "$agent" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    [ "$needed" = "libc.so " ] || problems+=("NEEDED is '$needed', not libc.so alone")
    versions=$(readelf -V "$agent" | grep -o 'GLIBC[_A-Z0-9.]*' | sort -u | tr '\n' ' ' || true)
    [ -z "$versions" ] || problems+=("glibc symbol versions: $versions")
    # Every symbol the agent takes from outside (weak ones may stay undefined).
    undefined=$(nm -D --undefined-only "$agent" | awk '$1 == "U" { print $2 }' | sort -u)
    missing=$(comm -23 <(echo "$undefined") <(nm -D --defined-only "$musl_libc" | awk '{ print $3 }' | sort -u) | tr '\n' ' ')
    [ -z "$missing" ] || problems+=("not in musl's libc.so: $missing")
    local host=$build/musl-load
    if ! musl-gcc -O2 -o "$host" "$root/test/platforms/musl_load.c" >"$build/musl-load.log" 2>&1 \
       || ! "$host" "$agent" >>"$build/musl-load.log" 2>&1; then
        problems+=("a musl program could not load it: $(tail -n 1 "$build/musl-load.log")")
    fi
    if [ ${#problems[@]} -gt 0 ]; then
        printf 'musl: %s\n' "${problems[@]}" >&2
        result inspect "FAILED: ${problems[*]}"
        return 1
    fi
    result inspect "NEEDED libc.so only, no symbol versions, $(echo "$undefined" | wc -l) undefined symbols all in musl's libc.so; $(tail -n 1 "$build/musl-load.log")"
}

step_cli() {
    step_start "the static musl command against a JVM on the host"
    if [ ! -f "$host_agent" ]; then
        result cli "FAILED: no host agent at $host_agent to load (build it first: scripts/build.sh)"
        return 1
    fi
    local status=0
    "$root/test/platforms/jvm-checks.sh" --only command --jdk "$host_jdk" --cli "$build/heapsampler" \
        --load-lib "$host_agent" --work "$build/jvm-checks" || status=$?
    result cli "$(tail -n 1 "$build/jvm-checks/summary.txt" 2>/dev/null || echo 'no summary'), $(step_secs) s; log $build/jvm-checks/checks.log"
    return $status
}

: > "$results"
command -v musl-gcc >/dev/null || skip "musl-gcc missing (scripts/install-deps.sh installs musl-tools)"
run_steps "deps build" "deps build unit inspect cli" "$@"
