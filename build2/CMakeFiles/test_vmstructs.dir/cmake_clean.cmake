file(REMOVE_RECURSE
  "CMakeFiles/test_vmstructs.dir/test/test_vmstructs.c.o"
  "CMakeFiles/test_vmstructs.dir/test/test_vmstructs.c.o.d"
  "CMakeFiles/test_vmstructs.dir/test/unit_main.c.o"
  "CMakeFiles/test_vmstructs.dir/test/unit_main.c.o.d"
  "test_vmstructs"
  "test_vmstructs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_vmstructs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
