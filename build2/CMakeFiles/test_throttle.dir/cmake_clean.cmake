file(REMOVE_RECURSE
  "CMakeFiles/test_throttle.dir/test/test_throttle.c.o"
  "CMakeFiles/test_throttle.dir/test/test_throttle.c.o.d"
  "CMakeFiles/test_throttle.dir/test/unit_main.c.o"
  "CMakeFiles/test_throttle.dir/test/unit_main.c.o.d"
  "test_throttle"
  "test_throttle.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_throttle.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
