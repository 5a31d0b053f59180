file(REMOVE_RECURSE
  "CMakeFiles/test_reference.dir/test/test_reference.c.o"
  "CMakeFiles/test_reference.dir/test/test_reference.c.o.d"
  "CMakeFiles/test_reference.dir/test/unit_main.c.o"
  "CMakeFiles/test_reference.dir/test/unit_main.c.o.d"
  "test_reference"
  "test_reference.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_reference.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
