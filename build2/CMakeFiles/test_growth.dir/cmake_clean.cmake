file(REMOVE_RECURSE
  "CMakeFiles/test_growth.dir/test/test_growth.c.o"
  "CMakeFiles/test_growth.dir/test/test_growth.c.o.d"
  "CMakeFiles/test_growth.dir/test/unit_main.c.o"
  "CMakeFiles/test_growth.dir/test/unit_main.c.o.d"
  "test_growth"
  "test_growth.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_growth.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
