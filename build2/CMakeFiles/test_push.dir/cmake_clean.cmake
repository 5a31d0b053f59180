file(REMOVE_RECURSE
  "CMakeFiles/test_push.dir/test/test_push.c.o"
  "CMakeFiles/test_push.dir/test/test_push.c.o.d"
  "CMakeFiles/test_push.dir/test/unit_main.c.o"
  "CMakeFiles/test_push.dir/test/unit_main.c.o.d"
  "test_push"
  "test_push.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_push.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
