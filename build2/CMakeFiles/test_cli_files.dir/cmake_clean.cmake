file(REMOVE_RECURSE
  "CMakeFiles/test_cli_files.dir/test/test_cli_files.c.o"
  "CMakeFiles/test_cli_files.dir/test/test_cli_files.c.o.d"
  "CMakeFiles/test_cli_files.dir/test/unit_main.c.o"
  "CMakeFiles/test_cli_files.dir/test/unit_main.c.o.d"
  "test_cli_files"
  "test_cli_files.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cli_files.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
