file(REMOVE_RECURSE
  "CMakeFiles/test_overflow.dir/test/test_overflow.c.o"
  "CMakeFiles/test_overflow.dir/test/test_overflow.c.o.d"
  "CMakeFiles/test_overflow.dir/test/unit_main.c.o"
  "CMakeFiles/test_overflow.dir/test/unit_main.c.o.d"
  "test_overflow"
  "test_overflow.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_overflow.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
