file(REMOVE_RECURSE
  "CMakeFiles/test_jvm_names.dir/test/test_jvm_names.c.o"
  "CMakeFiles/test_jvm_names.dir/test/test_jvm_names.c.o.d"
  "CMakeFiles/test_jvm_names.dir/test/unit_main.c.o"
  "CMakeFiles/test_jvm_names.dir/test/unit_main.c.o.d"
  "test_jvm_names"
  "test_jvm_names.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_jvm_names.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
