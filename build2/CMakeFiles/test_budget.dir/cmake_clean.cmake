file(REMOVE_RECURSE
  "CMakeFiles/test_budget.dir/test/test_budget.c.o"
  "CMakeFiles/test_budget.dir/test/test_budget.c.o.d"
  "CMakeFiles/test_budget.dir/test/unit_main.c.o"
  "CMakeFiles/test_budget.dir/test/unit_main.c.o.d"
  "test_budget"
  "test_budget.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_budget.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
