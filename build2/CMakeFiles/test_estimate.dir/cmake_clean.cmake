file(REMOVE_RECURSE
  "CMakeFiles/test_estimate.dir/test/test_estimate.c.o"
  "CMakeFiles/test_estimate.dir/test/test_estimate.c.o.d"
  "CMakeFiles/test_estimate.dir/test/unit_main.c.o"
  "CMakeFiles/test_estimate.dir/test/unit_main.c.o.d"
  "test_estimate"
  "test_estimate.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_estimate.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
