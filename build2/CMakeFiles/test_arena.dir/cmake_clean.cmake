file(REMOVE_RECURSE
  "CMakeFiles/test_arena.dir/test/test_arena.c.o"
  "CMakeFiles/test_arena.dir/test/test_arena.c.o.d"
  "CMakeFiles/test_arena.dir/test/unit_main.c.o"
  "CMakeFiles/test_arena.dir/test/unit_main.c.o.d"
  "test_arena"
  "test_arena.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_arena.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
