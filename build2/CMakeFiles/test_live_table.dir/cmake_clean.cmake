file(REMOVE_RECURSE
  "CMakeFiles/test_live_table.dir/test/test_live_table.c.o"
  "CMakeFiles/test_live_table.dir/test/test_live_table.c.o.d"
  "CMakeFiles/test_live_table.dir/test/unit_main.c.o"
  "CMakeFiles/test_live_table.dir/test/unit_main.c.o.d"
  "test_live_table"
  "test_live_table.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_live_table.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
