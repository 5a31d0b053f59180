file(REMOVE_RECURSE
  "CMakeFiles/test_thread_names.dir/test/test_thread_names.c.o"
  "CMakeFiles/test_thread_names.dir/test/test_thread_names.c.o.d"
  "CMakeFiles/test_thread_names.dir/test/unit_main.c.o"
  "CMakeFiles/test_thread_names.dir/test/unit_main.c.o.d"
  "test_thread_names"
  "test_thread_names.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_thread_names.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
