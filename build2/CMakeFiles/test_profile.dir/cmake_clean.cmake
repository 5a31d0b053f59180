file(REMOVE_RECURSE
  "CMakeFiles/test_profile.dir/test/test_profile.c.o"
  "CMakeFiles/test_profile.dir/test/test_profile.c.o.d"
  "CMakeFiles/test_profile.dir/test/unit_main.c.o"
  "CMakeFiles/test_profile.dir/test/unit_main.c.o.d"
  "test_profile"
  "test_profile.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_profile.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
