#!/usr/bin/env bash
# cross-arm64.sh: builds and tests heapsampler for Linux arm64 (aarch64, glibc) on an x86-64
# Debian 12 host, under qemu-user. Part of scripts/test.sh; runnable alone, step by step:
#
#   scripts/cross-arm64.sh [all|root|build|unit|jvm|deb]...     (default: all)
#
#   (always) registers qemu-aarch64 with binfmt_misc (root), so that arm64 programs run when
#           executed: the root's maintainer scripts, and test_docs, which popen()s the command
#   root    an arm64 Debian 12 root (mmdebstrap: openjdk-17-jdk-headless, zlib1g-dev,
#           libcunit1-dev) in $HEAPSAMPLER_ARM64_CACHE/root (default /var/cache/heapsampler-arm64),
#           kept between runs and remade when the package list changes; its absolute library
#           links made relative (it is the cross build's sysroot), and its empty /proc and
#           /tmp removed (qemu -L takes a path from the root where the root has it: the
#           emulated programs must see the host's processes and the host's /tmp)
#   build   agent, command and CUnit tests into build-arm64/ (cmake/toolchain-arm64.cmake)
#   unit    the CUnit tests under qemu (ctest, through CMAKE_CROSSCOMPILING_EMULATOR)
#   jvm     test/platforms/jvm-checks.sh inside the root's arm64 JDK 17, emulated: startup,
#           the heap source on G1 and Parallel, alloc and in-use within 4 sigma on a known
#           workload, and the arm64 command's list/load/top/dump against the emulated JVM
#   deb     cpack: build-arm64/heapsampler_VERSION_arm64.deb, its Architecture field checked
#           and its command run
#
# Writes build-arm64/results.txt, one line per step, for test.sh's summary. Exit status 0
# when everything passed, 1 when something failed, 77 when arm64 cannot be tested here (not
# root, no binfmt_misc, a tool missing): the reason is printed and written to results.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=${HEAPSAMPLER_ARM64_BUILD:-$root/build-arm64}
cache=${HEAPSAMPLER_ARM64_CACHE:-/var/cache/heapsampler-arm64}
sysroot=$cache/root
qemu=/usr/bin/qemu-aarch64-static
# What the root holds; a change remakes it.
root_packages=openjdk-17-jdk-headless,zlib1g-dev,libcunit1-dev
root_suite=bookworm
arm_jdk=$sysroot/usr/lib/jvm/java-17-openjdk-arm64
results=$build/results.txt

platform=arm64
# shellcheck source=platform-steps.sh
. "$root/scripts/platform-steps.sh"
mkdir -p "$build"

preflight() {
    [ "$(id -u)" -eq 0 ] || skip "not root (registering qemu with binfmt_misc and making the root with mmdebstrap need root)"
    local tool missing=()
    for tool in aarch64-linux-gnu-gcc "$qemu" mmdebstrap cmake; do
        command -v "$tool" >/dev/null || missing+=("$tool")
    done
    [ ${#missing[@]} -eq 0 ] || skip "missing ${missing[*]} (scripts/install-deps.sh installs gcc-aarch64-linux-gnu, qemu-user-static, mmdebstrap)"
}

# The standard qemu-aarch64 entry: ELF64, little-endian, e_machine 183 (AArch64). F: the
# interpreter is opened now, so it also runs inside the root's chroot during mmdebstrap.
binfmt_line=':qemu-aarch64:M::\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F'

step_binfmt() {
    local dir=/proc/sys/fs/binfmt_misc
    if [ ! -e "$dir/register" ]; then
        mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null \
            || skip "cannot mount binfmt_misc on $dir (a container without the privilege to?): arm64 programs cannot be run"
    fi
    if [ ! -e "$dir/qemu-aarch64" ]; then
        printf '%s' "$binfmt_line" > "$dir/register" 2>/dev/null \
            || skip "cannot register qemu-aarch64 in $dir/register: arm64 programs cannot be run"
        echo "arm64: registered qemu-aarch64 with binfmt_misc ($qemu, flags F)"
    fi
    grep -qx enabled "$dir/qemu-aarch64" || skip "binfmt_misc's qemu-aarch64 entry is disabled"
    if command -v arch-test >/dev/null && ! arch-test arm64 >/dev/null 2>&1; then
        skip "binfmt_misc has qemu-aarch64, but arm64 programs do not run (arch-test arm64 fails)"
    fi
    result binfmt "qemu-aarch64 registered ($(sed -n 's/^interpreter //p' "$dir/qemu-aarch64"))"
}

# Makes library links that point at absolute paths inside the root relative, so that the
# host's linker and CMake, which see the root from outside, follow them into the root
# (links already relative are left alone: cheap on a prepared root).
relative_links() {
    local link target
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        [ -e "$sysroot$target" ] || continue
        ln -sfn "$(realpath --relative-to="$(dirname "$link")" "$sysroot$target")" "$link"
    done < <(find "$sysroot/usr/lib" "$sysroot/lib" -lname '/*' -print0 2>/dev/null)
}

# remove_root DIR: deletes a root, after unmounting what a killed mmdebstrap may have left
# mounted inside it (/proc, /sys, device nodes): rm must never reach the host's through them.
remove_root() {
    local dir=$1 mnt
    [ -e "$dir" ] || return 0
    while IFS= read -r mnt; do
        umount -l "$mnt" 2>/dev/null || true
    done < <(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r)
    rm -rf --one-file-system "$dir"
}

root_stamp() { printf '%s %s %s\n' "$root_suite" "$root_packages" "$1"; }

root_ready() {
    [ -f "$sysroot/.heapsampler-root" ] && [ -x "$arm_jdk/bin/java" ] \
        && [ "$(cut -d' ' -f1,2 "$sysroot/.heapsampler-root")" = "$root_suite $root_packages" ]
}

# prepare_root: what makes the root a sysroot for the host and a prefix for qemu -L, where
# every path the root has is taken from it: its absolute library links made relative, and
# no /proc (the emulated command lists the host's processes) and no /tmp (the emulated JVM
# and command share the host's, where the attach socket and the checks' files are). Run on
# every use, so that a root kept from an earlier version of this script gets it too.
prepare_root() {
    relative_links
    rmdir "$sysroot/proc" 2>/dev/null || true
    rm -rf --one-file-system "$sysroot/tmp"
}

step_root() {
    step_start "root ($sysroot)"
    mkdir -p "$cache"
    exec 9>"$cache/.lock"
    flock 9 # one run makes it; another waits and uses it
    if root_ready; then
        prepare_root
        result root "cached ($(cat "$sysroot/.heapsampler-root")), $(step_secs) s"
        exec 9>&-
        return 0
    fi
    local mirror new=$cache/root.new
    mirror=$(debian_mirror)
    remove_root "$new"
    remove_root "$sysroot"
    # Docs and translations left out; man pages not (openjdk's postinst registers its man
    # pages with update-alternatives, which fails without /usr/share/man/man1).
    echo "arm64: making the root with mmdebstrap ($root_suite, $root_packages; about 5 minutes)"
    if ! mmdebstrap --mode=root --arch=arm64 --variant=apt --include="$root_packages" \
            --dpkgopt='path-exclude=/usr/share/doc/*' \
            --dpkgopt='path-exclude=/usr/share/locale/*' \
            "$root_suite" "$new" "deb $mirror $root_suite main" >"$cache/mmdebstrap.log" 2>&1; then
        tail -20 "$cache/mmdebstrap.log" >&2
        result root "FAILED: mmdebstrap (log $cache/mmdebstrap.log)"
        return 1
    fi
    mv "$new" "$sysroot"
    prepare_root
    local version
    version=$("$qemu" -L "$sysroot" "$arm_jdk/bin/java" -version 2>&1 | sed -n 's/.*(build \([^)]*\)).*/\1/p' | head -n 1)
    root_stamp "jdk=${version:-?}" > "$sysroot/.heapsampler-root"
    exec 9>&-
    result root "made ($(cat "$sysroot/.heapsampler-root")), $(step_secs) s"
}

step_build() {
    step_start "cross build (build-arm64)"
    root_ready || { result build "FAILED: no root (run: $0 root)"; return 1; }
    if ! { cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-arm64.cmake" \
              -DHEAPSAMPLER_ARM64_ROOT="$sysroot" -DHEAPSAMPLER_JTREG=OFF \
              -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/cmake.log" 2>&1 \
           && cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1; }; then
        tail -30 "$build/cmake.log" "$build/build.log" >&2
        result build "FAILED (logs $build/cmake.log, $build/build.log)"
        return 1
    fi
    local f machine
    for f in "$build/libheapsampler.so" "$build/heapsampler"; do
        machine=$(readelf -h "$f" | sed -n 's/^ *Machine: *//p')
        if [ "$machine" != AArch64 ]; then
            result build "FAILED: $f is for '$machine', not AArch64"
            return 1
        fi
    done
    # Warnings count as failures: the code is built with -Wall -Wextra and has none on x86-64.
    if grep -q 'warning:' "$build/build.log"; then
        grep 'warning:' "$build/build.log" >&2
        result build "FAILED: warnings (log $build/build.log)"
        return 1
    fi
    result build "agent and command for AArch64, no warning, $(step_secs) s"
}

step_unit() {
    step_start "CUnit under qemu"
    # QEMU_LD_PREFIX: for the arm64 programs a test starts itself (through binfmt_misc)
    run_ctest "$build" QEMU_LD_PREFIX="$sysroot"
}

step_jvm() {
    step_start "JVM checks in the emulated arm64 JDK 17"
    local status=0 host_cli=()
    # The host's own command (build/, when built) asks the emulated JVM's agent too.
    [ ! -x "$root/build/heapsampler" ] || host_cli=(--host-cli "$root/build/heapsampler")
    "$root/test/platforms/jvm-checks.sh" --arch aarch64 --jdk "$arm_jdk" --run "$qemu -L $sysroot" \
        --agent "$build/libheapsampler.so" --cli "$qemu -L $sysroot $build/heapsampler" \
        "${host_cli[@]}" --work "$build/jvm-checks" || status=$?
    result jvm "$(tail -n 1 "$build/jvm-checks/summary.txt" 2>/dev/null || echo 'no summary'), $(step_secs) s; log $build/jvm-checks/checks.log"
    return $status
}

step_deb() {
    step_start "cpack (arm64 .deb)"
    rm -f "$build"/heapsampler_*_arm64.deb
    if ! (cd "$build" && cpack -G DEB >"$build/cpack.log" 2>&1); then
        tail -20 "$build/cpack.log" >&2
        result deb "FAILED: cpack (log $build/cpack.log)"
        return 1
    fi
    local deb arch extracted=$build/deb-extracted
    deb=$(ls "$build"/heapsampler_*_arm64.deb 2>/dev/null | head -n 1)
    [ -n "$deb" ] || { result deb "FAILED: no heapsampler_*_arm64.deb in $build"; return 1; }
    arch=$(dpkg-deb -f "$deb" Architecture)
    rm -rf "$extracted" && dpkg-deb -x "$deb" "$extracted"
    local cmd=$extracted/usr/bin/heapsampler agent=$extracted/usr/lib/heapsampler/libheapsampler.so
    if [ "$arch" != arm64 ] || [ "$(readelf -h "$agent" | sed -n 's/^ *Machine: *//p')" != AArch64 ] \
       || ! "$qemu" -L "$sysroot" "$cmd" version >/dev/null; then
        result deb "FAILED: $deb: Architecture '$arch', or its agent or command not arm64 or not running"
        return 1
    fi
    result deb "${deb#"$build"/} (Architecture: $arch; its command runs), $(step_secs) s"
}

: > "$results"
preflight
step_binfmt
run_steps "root build" "root build unit jvm deb" "$@"
