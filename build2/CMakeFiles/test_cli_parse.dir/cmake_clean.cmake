file(REMOVE_RECURSE
  "CMakeFiles/test_cli_parse.dir/test/test_cli_parse.c.o"
  "CMakeFiles/test_cli_parse.dir/test/test_cli_parse.c.o.d"
  "CMakeFiles/test_cli_parse.dir/test/unit_main.c.o"
  "CMakeFiles/test_cli_parse.dir/test/unit_main.c.o.d"
  "test_cli_parse"
  "test_cli_parse.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cli_parse.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
