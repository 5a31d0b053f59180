file(REMOVE_RECURSE
  "CMakeFiles/test_interval_control.dir/test/test_interval_control.c.o"
  "CMakeFiles/test_interval_control.dir/test/test_interval_control.c.o.d"
  "CMakeFiles/test_interval_control.dir/test/unit_main.c.o"
  "CMakeFiles/test_interval_control.dir/test/unit_main.c.o.d"
  "test_interval_control"
  "test_interval_control.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_interval_control.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
