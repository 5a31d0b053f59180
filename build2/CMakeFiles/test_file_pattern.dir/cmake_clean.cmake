file(REMOVE_RECURSE
  "CMakeFiles/test_file_pattern.dir/test/test_file_pattern.c.o"
  "CMakeFiles/test_file_pattern.dir/test/test_file_pattern.c.o.d"
  "CMakeFiles/test_file_pattern.dir/test/unit_main.c.o"
  "CMakeFiles/test_file_pattern.dir/test/unit_main.c.o.d"
  "test_file_pattern"
  "test_file_pattern.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_file_pattern.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
