file(REMOVE_RECURSE
  "CMakeFiles/test_stack_store.dir/test/test_stack_store.c.o"
  "CMakeFiles/test_stack_store.dir/test/test_stack_store.c.o.d"
  "CMakeFiles/test_stack_store.dir/test/unit_main.c.o"
  "CMakeFiles/test_stack_store.dir/test/unit_main.c.o.d"
  "test_stack_store"
  "test_stack_store.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_stack_store.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
