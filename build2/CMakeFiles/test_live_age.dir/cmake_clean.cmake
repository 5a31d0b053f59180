file(REMOVE_RECURSE
  "CMakeFiles/test_live_age.dir/test/test_live_age.c.o"
  "CMakeFiles/test_live_age.dir/test/test_live_age.c.o.d"
  "CMakeFiles/test_live_age.dir/test/unit_main.c.o"
  "CMakeFiles/test_live_age.dir/test/unit_main.c.o.d"
  "test_live_age"
  "test_live_age.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_live_age.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
