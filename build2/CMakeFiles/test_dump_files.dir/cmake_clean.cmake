file(REMOVE_RECURSE
  "CMakeFiles/test_dump_files.dir/test/test_dump_files.c.o"
  "CMakeFiles/test_dump_files.dir/test/test_dump_files.c.o.d"
  "CMakeFiles/test_dump_files.dir/test/unit_main.c.o"
  "CMakeFiles/test_dump_files.dir/test/unit_main.c.o.d"
  "test_dump_files"
  "test_dump_files.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dump_files.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
