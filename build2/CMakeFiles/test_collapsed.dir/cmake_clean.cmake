file(REMOVE_RECURSE
  "CMakeFiles/test_collapsed.dir/test/test_collapsed.c.o"
  "CMakeFiles/test_collapsed.dir/test/test_collapsed.c.o.d"
  "CMakeFiles/test_collapsed.dir/test/unit_main.c.o"
  "CMakeFiles/test_collapsed.dir/test/unit_main.c.o.d"
  "test_collapsed"
  "test_collapsed.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_collapsed.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
