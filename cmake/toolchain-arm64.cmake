# toolchain-arm64.cmake: cross-builds heapsampler for Linux arm64 (aarch64, glibc) on an
# x86-64 Debian host, against an arm64 Debian root (scripts/cross-arm64.sh makes one):
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake \
#         -DHEAPSAMPLER_ARM64_ROOT=/var/cache/heapsampler-arm64/root
#
# The root holds the target's glibc, zlib1g-dev, libcunit1-dev and openjdk-17-jdk-headless
# (whose include/ gives jvmti.h and the arm64 jni_md.h). Its absolute library symlinks
# (libz.so -> /lib/aarch64-linux-gnu/libz.so.1.2.13) must be made relative first, or CMake
# and the linker, which see them from the host, fall back to static archives;
# cross-arm64.sh does that. ctest runs the unit tests through qemu-user (the emulator below);
# a test that starts an arm64 program itself (test_docs popen()s the command) needs
# binfmt_misc for qemu-aarch64 and QEMU_LD_PREFIX=<root> in the environment.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

# try_compile projects do not see the cache: hand the root to them explicitly.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HEAPSAMPLER_ARM64_ROOT)
if(NOT HEAPSAMPLER_ARM64_ROOT AND DEFINED ENV{HEAPSAMPLER_ARM64_ROOT})
  set(HEAPSAMPLER_ARM64_ROOT "$ENV{HEAPSAMPLER_ARM64_ROOT}")
endif()
if(NOT HEAPSAMPLER_ARM64_ROOT OR NOT EXISTS "${HEAPSAMPLER_ARM64_ROOT}/usr/include")
  message(FATAL_ERROR "toolchain-arm64: HEAPSAMPLER_ARM64_ROOT must name an arm64 Debian root "
                      "(scripts/cross-arm64.sh root makes one), not '${HEAPSAMPLER_ARM64_ROOT}'")
endif()
set(HEAPSAMPLER_ARM64_ROOT "${HEAPSAMPLER_ARM64_ROOT}" CACHE PATH "The arm64 Debian root (sysroot)")

set(CMAKE_SYSROOT "${HEAPSAMPLER_ARM64_ROOT}")
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Programs (go-md2man, the host's tools) from the host; headers and libraries from the root.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The JVMTI headers of the root's JDK (the host's javac would name the amd64 JDK).
set(JVMTI_INCLUDE_DIR "${HEAPSAMPLER_ARM64_ROOT}/usr/lib/jvm/java-17-openjdk-arm64/include"
    CACHE PATH "jvmti.h of the target's JDK")
set(CMAKE_CROSSCOMPILING_EMULATOR "/usr/bin/qemu-aarch64-static;-L;${HEAPSAMPLER_ARM64_ROOT}")
