file(REMOVE_RECURSE
  "CMakeFiles/test_wall_clock.dir/test/test_wall_clock.c.o"
  "CMakeFiles/test_wall_clock.dir/test/test_wall_clock.c.o.d"
  "CMakeFiles/test_wall_clock.dir/test/unit_main.c.o"
  "CMakeFiles/test_wall_clock.dir/test/unit_main.c.o.d"
  "test_wall_clock"
  "test_wall_clock.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_wall_clock.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
