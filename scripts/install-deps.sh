#!/usr/bin/env bash
# install-deps.sh: installs what building and testing heapsampler needs on Debian 12.
# Shared by the README's two commands and by CI. Does nothing when all is present.
# JDK 11 and 21 for the jtreg suite come from Debian's other releases into a private
# directory (scripts/install-jdks.sh); patchelf is what that needs. The other platforms
# (docs/platforms.md): gcc-aarch64-linux-gnu, qemu-user-static and mmdebstrap for arm64
# (scripts/cross-arm64.sh), musl-tools and dpkg-dev (Debian's zlib and cunit sources) for
# musl (scripts/build-musl.sh).
set -euo pipefail

packages=(cmake make gcc libc6-dev pkg-config zlib1g-dev libcunit1-dev jtreg7 golang-go
          openjdk-17-jdk-headless chromium clang libclang-rt-14-dev go-md2man groff-base passwd
          curl libcurl4 patchelf gcc-aarch64-linux-gnu qemu-user-static mmdebstrap musl-tools
          dpkg-dev file procps)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ${#missing[@]} -eq 0 ]; then
  exec "$root/scripts/install-jdks.sh"
fi
echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
# Wait (up to 10 min) for another package manager run, e.g. unattended-upgrades, to finish.
apt_wait=(-o DPkg::Lock::Timeout=600)
$SUDO apt-get "${apt_wait[@]}" update -qq
$SUDO apt-get "${apt_wait[@]}" install -y -qq "${missing[@]}" >/dev/null
"$root/scripts/install-jdks.sh"
