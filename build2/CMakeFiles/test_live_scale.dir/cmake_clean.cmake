file(REMOVE_RECURSE
  "CMakeFiles/test_live_scale.dir/test/test_live_scale.c.o"
  "CMakeFiles/test_live_scale.dir/test/test_live_scale.c.o.d"
  "CMakeFiles/test_live_scale.dir/test/unit_main.c.o"
  "CMakeFiles/test_live_scale.dir/test/unit_main.c.o.d"
  "test_live_scale"
  "test_live_scale.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_live_scale.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
