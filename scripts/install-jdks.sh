#!/usr/bin/env bash
# install-jdks.sh: installs JDK 11 and JDK 21 for the jtreg suite into a private directory,
# from Debian's own package archive, without touching the system's apt sources or its libc.
#
#   scripts/install-jdks.sh            (run by scripts/install-deps.sh)
#
# HEAPSAMPLER_JDK_DIR (default /opt/heapsampler-jdks) receives:
#   jdk-11/    Debian bullseye's openjdk-11-jdk-headless (built for glibc 2.31: runs as is)
#   jdk-21/    Debian trixie's openjdk-21-jdk-headless, every ELF file patched (patchelf) to
#              use trixie's glibc from glibc-trixie/ (the JDK needs glibc 2.38, Debian 12 has
#              2.36); the system's libc stays as it is
#   apt/       a private apt state (sources, lists, downloaded .debs) for bullseye and trixie
# Each JDK's conf/ links, which point at /etc/java-NN-openjdk in the package, are re-pointed
# at the unpacked etc/ inside the JDK's directory. Idempotent: a JDK this script installed,
# and whose bin/java, bin/javac and bin/jcmd ran then, is left alone. A JDK that cannot be
# installed is reported on stderr and skipped (the jtreg suite then skips that JDK, saying
# so); the exit status is 0 unless asked otherwise with HEAPSAMPLER_JDKS_REQUIRED=1.
set -euo pipefail

dir=${HEAPSAMPLER_JDK_DIR:-/opt/heapsampler-jdks}
apt_dir=$dir/apt

# jdk_runs HOME: true if the JDK's launchers all start; then marks the JDK as installed.
jdk_runs() {
    "$1/bin/java" -version >/dev/null 2>&1 && "$1/bin/javac" -version >/dev/null 2>&1 \
        && "$1/bin/jcmd" -h >/dev/null 2>&1 && touch "$1/.installed-by-heapsampler"
}

# jdk_installed HOME: installed by an earlier run, whose launchers all started then (cheap:
# build.sh runs this script every time).
jdk_installed() {
    [ -f "$1/.installed-by-heapsampler" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] \
        && [ -x "$1/bin/jcmd" ]
}

# apt_private ARGS...: apt-get on the private sources and state (never the system's).
apt_private() {
    apt-get -o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=- \
        -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" \
        -o APT::Sandbox::User=root -o DPkg::Lock::Timeout=600 "$@"
}

# apt_prepare: the private sources and fresh lists (once per run that installs something).
apt_prepare() {
    [ -n "${apt_ready:-}" ] && return 0
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/deb"
    local mirror
    mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    mirror=${mirror:-http://deb.debian.org/debian}
    cat > "$apt_dir/sources.list" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bullseye main
EOF
    apt_private update -qq
    apt_ready=1
}

# fetch DIR PKG...: downloads the packages' .debs into apt/deb/DIR, emptied first (so that
# the .debs of an older version never mix with the new ones).
fetch() {
    local into=$apt_dir/deb/$1
    shift
    rm -rf "$into" && mkdir -p "$into"
    (cd "$into" && apt_private download -qq "$@")
}

# unpack_jdk VERSION HOME: unpacks the jre+jdk headless .debs of that version into HOME and
# makes the JDK's tree self-contained (its /etc links re-pointed inside HOME/etc).
unpack_jdk() {
    local v=$1 home=$2 stage=$2.stage deb
    rm -rf "$stage" && mkdir -p "$stage"
    for deb in "$apt_dir/deb/$v"/openjdk-"$v"-jre-headless_*.deb \
               "$apt_dir/deb/$v"/openjdk-"$v"-jdk-headless_*.deb; do
        dpkg-deb -x "$deb" "$stage/root"
    done
    mv "$stage/root/usr/lib/jvm/java-$v-openjdk-amd64" "$stage/home"
    mv "$stage/root/etc/java-$v-openjdk" "$stage/home/etc"
    # Links into /etc/java-NN-openjdk (conf/, jvm.cfg...) and into the package's own
    # /usr/lib/jvm/java-NN-openjdk-amd64 become links inside the private home.
    local link target
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        case $target in
            /etc/java-$v-openjdk/*) ln -sfn "$home/etc/${target#/etc/java-$v-openjdk/}" "$link" ;;
            /usr/lib/jvm/java-$v-openjdk-amd64/*)
                ln -sfn "$home/${target#/usr/lib/jvm/java-$v-openjdk-amd64/}" "$link" ;;
        esac
    done < <(find "$stage/home" -type l -print0)
    rm -rf "$home" && mv "$stage/home" "$home" && rm -rf "$stage"
}

# patch_for_glibc HOME GLIBC: every ELF file of the JDK loads GLIBC's libc (interpreter of
# executables, first entry of every run path).
patch_for_glibc() {
    local home=$1 glibc=$2 f rpath
    while IFS= read -r -d '' f; do
        [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
        if patchelf --print-interpreter "$f" >/dev/null 2>&1; then
            patchelf --set-interpreter "$glibc/ld-linux-x86-64.so.2" "$f"
        fi
        rpath=$(patchelf --print-rpath "$f")
        case ":$rpath:" in *":$glibc:"*) continue ;; esac
        patchelf --set-rpath "$glibc${rpath:+:$rpath}" "$f"
    done < <(find "$home" -type f -print0)
}

install_11() {
    local home=$dir/jdk-11
    jdk_installed "$home" && return 0
    echo "install-jdks: JDK 11 (Debian bullseye) into $home"
    apt_prepare
    fetch 11 openjdk-11-jre-headless/bullseye openjdk-11-jdk-headless/bullseye
    unpack_jdk 11 "$home"
    jdk_runs "$home"
}

install_21() {
    local home=$dir/jdk-21 glibc=$dir/glibc-trixie
    jdk_installed "$home" && return 0
    echo "install-jdks: JDK 21 (Debian trixie, with trixie's glibc in $glibc) into $home"
    command -v patchelf >/dev/null || { echo "install-jdks: patchelf is missing" >&2; return 1; }
    apt_prepare
    fetch 21 openjdk-21-jre-headless/trixie openjdk-21-jdk-headless/trixie libc6/trixie
    rm -rf "$glibc.stage" && mkdir -p "$glibc.stage"
    dpkg-deb -x "$apt_dir"/deb/21/libc6_*.deb "$glibc.stage"
    rm -rf "$glibc" && mv "$glibc.stage/usr/lib/x86_64-linux-gnu" "$glibc" && rm -rf "$glibc.stage"
    unpack_jdk 21 "$home"
    patch_for_glibc "$home" "$glibc"
    jdk_runs "$home"
}

mkdir -p "$dir" 2>/dev/null || { echo "install-jdks: cannot create $dir: JDK 11 and 21 skipped" >&2; exit 0; }
status=0
for v in 11 21; do
    if ! "install_$v"; then
        echo "install-jdks: JDK $v could not be installed into $dir/jdk-$v: its jtreg suite will be skipped" >&2
        status=1
    fi
done
if [ "${HEAPSAMPLER_JDKS_REQUIRED:-0}" = 1 ]; then exit $status; fi
exit 0
