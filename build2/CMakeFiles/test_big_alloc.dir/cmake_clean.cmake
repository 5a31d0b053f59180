file(REMOVE_RECURSE
  "CMakeFiles/test_big_alloc.dir/test/test_big_alloc.c.o"
  "CMakeFiles/test_big_alloc.dir/test/test_big_alloc.c.o.d"
  "CMakeFiles/test_big_alloc.dir/test/unit_main.c.o"
  "CMakeFiles/test_big_alloc.dir/test/unit_main.c.o.d"
  "test_big_alloc"
  "test_big_alloc.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_big_alloc.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
