file(REMOVE_RECURSE
  "CMakeFiles/test_flame_tree.dir/test/test_flame_tree.c.o"
  "CMakeFiles/test_flame_tree.dir/test/test_flame_tree.c.o.d"
  "CMakeFiles/test_flame_tree.dir/test/unit_main.c.o"
  "CMakeFiles/test_flame_tree.dir/test/unit_main.c.o.d"
  "test_flame_tree"
  "test_flame_tree.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_flame_tree.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
