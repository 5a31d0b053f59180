
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/integ/test/test_push.c" "CMakeFiles/test_push.dir/test/test_push.c.o" "gcc" "CMakeFiles/test_push.dir/test/test_push.c.o.d"
  "/work/wt/integ/test/unit_main.c" "CMakeFiles/test_push.dir/test/unit_main.c.o" "gcc" "CMakeFiles/test_push.dir/test/unit_main.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
