file(REMOVE_RECURSE
  "CMakeFiles/test_sample_table.dir/test/test_sample_table.c.o"
  "CMakeFiles/test_sample_table.dir/test/test_sample_table.c.o.d"
  "CMakeFiles/test_sample_table.dir/test/unit_main.c.o"
  "CMakeFiles/test_sample_table.dir/test/unit_main.c.o.d"
  "test_sample_table"
  "test_sample_table.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sample_table.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
