file(REMOVE_RECURSE
  "CMakeFiles/hs_cli_core.dir/src/cli/agent_call.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/agent_call.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/args.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/args.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/attach.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/attach.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/attach_proto.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/attach_proto.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/cli_error.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/cli_error.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/cmdline.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/cmdline.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/lib_path.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/lib_path.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/list.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/list.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/ns_path.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/ns_path.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/out_file.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/out_file.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/target.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/target.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/temp_files.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/temp_files.c.o.d"
  "CMakeFiles/hs_cli_core.dir/src/cli/verbs.c.o"
  "CMakeFiles/hs_cli_core.dir/src/cli/verbs.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/hs_cli_core.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
