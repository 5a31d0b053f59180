file(REMOVE_RECURSE
  "CMakeFiles/test_retention.dir/test/test_retention.c.o"
  "CMakeFiles/test_retention.dir/test/test_retention.c.o.d"
  "CMakeFiles/test_retention.dir/test/unit_main.c.o"
  "CMakeFiles/test_retention.dir/test/unit_main.c.o.d"
  "test_retention"
  "test_retention.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_retention.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
