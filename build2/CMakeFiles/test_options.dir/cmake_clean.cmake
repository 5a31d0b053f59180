file(REMOVE_RECURSE
  "CMakeFiles/test_options.dir/test/test_options.c.o"
  "CMakeFiles/test_options.dir/test/test_options.c.o.d"
  "CMakeFiles/test_options.dir/test/unit_main.c.o"
  "CMakeFiles/test_options.dir/test/unit_main.c.o.d"
  "test_options"
  "test_options.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_options.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
