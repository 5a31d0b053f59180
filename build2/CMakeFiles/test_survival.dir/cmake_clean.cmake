file(REMOVE_RECURSE
  "CMakeFiles/test_survival.dir/test/test_survival.c.o"
  "CMakeFiles/test_survival.dir/test/test_survival.c.o.d"
  "CMakeFiles/test_survival.dir/test/unit_main.c.o"
  "CMakeFiles/test_survival.dir/test/unit_main.c.o.d"
  "test_survival"
  "test_survival.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_survival.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
