file(REMOVE_RECURSE
  "CMakeFiles/test_heap_usage.dir/test/test_heap_usage.c.o"
  "CMakeFiles/test_heap_usage.dir/test/test_heap_usage.c.o.d"
  "CMakeFiles/test_heap_usage.dir/test/unit_main.c.o"
  "CMakeFiles/test_heap_usage.dir/test/unit_main.c.o.d"
  "test_heap_usage"
  "test_heap_usage.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_heap_usage.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
