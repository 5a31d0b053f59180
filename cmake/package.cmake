# package.cmake: what `cmake --install` puts where, the man page, and the Debian package.
#
#   bin/heapsampler                        the operator's command
#   lib/heapsampler/libheapsampler.so      the agent (the command finds it at ../lib/heapsampler/)
#   share/man/man1/heapsampler.1.gz        heapsampler(1), from docs/heapsampler.1.md
#
# `cpack -G DEB` in the build directory makes heapsampler_VERSION_amd64.deb (installs under
# /usr); in an arm64 cross build (cmake/toolchain-arm64.cmake) heapsampler_VERSION_arm64.deb.
# Included at the end of CMakeLists.txt, once every target exists.
# The paths are literal (no GNUInstallDirs): the command looks for ../lib/heapsampler/, which
# a multiarch lib/x86_64-linux-gnu would break.
if(TARGET heapsampler)
  install(TARGETS heapsampler LIBRARY DESTINATION lib/heapsampler)
endif()
if(TARGET heapsampler_cli)
  install(TARGETS heapsampler_cli RUNTIME DESTINATION bin)
endif()

# --- heapsampler(1): docs/heapsampler.1.md (also the docs page) through go-md2man ------
find_program(GO_MD2MAN go-md2man)
if(GO_MD2MAN)
  set(HS_MAN_MD ${CMAKE_BINARY_DIR}/generated/heapsampler.1.md)
  set(HS_MAN ${CMAKE_BINARY_DIR}/heapsampler.1)
  configure_file(${CMAKE_SOURCE_DIR}/docs/heapsampler.1.md ${HS_MAN_MD} @ONLY)
  add_custom_command(OUTPUT ${HS_MAN}.gz
    COMMAND ${GO_MD2MAN} -in ${HS_MAN_MD} -out ${HS_MAN}
    COMMAND sed -i -f ${CMAKE_SOURCE_DIR}/cmake/man-glyphs.sed ${HS_MAN}
    COMMAND gzip -9nf ${HS_MAN}
    DEPENDS ${HS_MAN_MD} ${CMAKE_SOURCE_DIR}/cmake/man-glyphs.sed
    COMMENT "Making heapsampler(1) from docs/heapsampler.1.md")
  add_custom_target(heapsampler_man ALL DEPENDS ${HS_MAN}.gz)
  install(FILES ${HS_MAN}.gz DESTINATION share/man/man1)
else()
  message(WARNING "go-md2man not found (apt-get install go-md2man): heapsampler(1) not built")
endif()

# --- Debian package ----------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME heapsampler)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "heapsampler developers <heapsampler@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "low-overhead heap profiler for the JVM (allocations and live heap, pprof output)")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "A JVMTI agent that samples allocations and tracks which sampled objects stay alive,
writing pprof profiles, HTML flame graphs and reports; and the heapsampler command,
which loads it into a running JVM and prints its answers in the operator's terminal.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, zlib1g")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # with the target's strip (CMAKE_STRIP) in a cross build
# CPack asks dpkg for the architecture, which names the host's: a cross build names the
# target's.
if(CMAKE_CROSSCOMPILING AND NOT CPACK_DEBIAN_PACKAGE_ARCHITECTURE)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
  else()
    message(WARNING "No Debian architecture known for ${CMAKE_SYSTEM_PROCESSOR}: "
                    "set CPACK_DEBIAN_PACKAGE_ARCHITECTURE for cpack")
  endif()
endif()
include(CPack)
