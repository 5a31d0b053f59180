file(REMOVE_RECURSE
  "CMakeFiles/test_ptr_map.dir/test/test_ptr_map.c.o"
  "CMakeFiles/test_ptr_map.dir/test/test_ptr_map.c.o.d"
  "CMakeFiles/test_ptr_map.dir/test/unit_main.c.o"
  "CMakeFiles/test_ptr_map.dir/test/unit_main.c.o.d"
  "test_ptr_map"
  "test_ptr_map.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ptr_map.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
