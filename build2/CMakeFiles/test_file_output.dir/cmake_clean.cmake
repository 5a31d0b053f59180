file(REMOVE_RECURSE
  "CMakeFiles/test_file_output.dir/test/test_file_output.c.o"
  "CMakeFiles/test_file_output.dir/test/test_file_output.c.o.d"
  "CMakeFiles/test_file_output.dir/test/unit_main.c.o"
  "CMakeFiles/test_file_output.dir/test/unit_main.c.o.d"
  "test_file_output"
  "test_file_output.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_file_output.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
