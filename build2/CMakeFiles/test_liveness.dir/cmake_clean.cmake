file(REMOVE_RECURSE
  "CMakeFiles/test_liveness.dir/test/test_liveness.c.o"
  "CMakeFiles/test_liveness.dir/test/test_liveness.c.o.d"
  "CMakeFiles/test_liveness.dir/test/unit_main.c.o"
  "CMakeFiles/test_liveness.dir/test/unit_main.c.o.d"
  "test_liveness"
  "test_liveness.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_liveness.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
