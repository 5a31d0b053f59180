
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/integ/src/cli/agent_call.c" "CMakeFiles/hs_cli_core.dir/src/cli/agent_call.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/agent_call.c.o.d"
  "/work/wt/integ/src/cli/args.c" "CMakeFiles/hs_cli_core.dir/src/cli/args.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/args.c.o.d"
  "/work/wt/integ/src/cli/attach.c" "CMakeFiles/hs_cli_core.dir/src/cli/attach.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/attach.c.o.d"
  "/work/wt/integ/src/cli/attach_proto.c" "CMakeFiles/hs_cli_core.dir/src/cli/attach_proto.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/attach_proto.c.o.d"
  "/work/wt/integ/src/cli/cli_error.c" "CMakeFiles/hs_cli_core.dir/src/cli/cli_error.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/cli_error.c.o.d"
  "/work/wt/integ/src/cli/cmdline.c" "CMakeFiles/hs_cli_core.dir/src/cli/cmdline.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/cmdline.c.o.d"
  "/work/wt/integ/src/cli/lib_path.c" "CMakeFiles/hs_cli_core.dir/src/cli/lib_path.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/lib_path.c.o.d"
  "/work/wt/integ/src/cli/list.c" "CMakeFiles/hs_cli_core.dir/src/cli/list.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/list.c.o.d"
  "/work/wt/integ/src/cli/ns_path.c" "CMakeFiles/hs_cli_core.dir/src/cli/ns_path.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/ns_path.c.o.d"
  "/work/wt/integ/src/cli/out_file.c" "CMakeFiles/hs_cli_core.dir/src/cli/out_file.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/out_file.c.o.d"
  "/work/wt/integ/src/cli/target.c" "CMakeFiles/hs_cli_core.dir/src/cli/target.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/target.c.o.d"
  "/work/wt/integ/src/cli/temp_files.c" "CMakeFiles/hs_cli_core.dir/src/cli/temp_files.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/temp_files.c.o.d"
  "/work/wt/integ/src/cli/verbs.c" "CMakeFiles/hs_cli_core.dir/src/cli/verbs.c.o" "gcc" "CMakeFiles/hs_cli_core.dir/src/cli/verbs.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
