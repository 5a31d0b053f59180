file(REMOVE_RECURSE
  "CMakeFiles/test_class_cache.dir/test/test_class_cache.c.o"
  "CMakeFiles/test_class_cache.dir/test/test_class_cache.c.o.d"
  "CMakeFiles/test_class_cache.dir/test/unit_main.c.o"
  "CMakeFiles/test_class_cache.dir/test/unit_main.c.o.d"
  "test_class_cache"
  "test_class_cache.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_class_cache.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
