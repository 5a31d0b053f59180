file(REMOVE_RECURSE
  "CMakeFiles/test_pprof.dir/test/test_pprof.c.o"
  "CMakeFiles/test_pprof.dir/test/test_pprof.c.o.d"
  "CMakeFiles/test_pprof.dir/test/unit_main.c.o"
  "CMakeFiles/test_pprof.dir/test/unit_main.c.o.d"
  "test_pprof"
  "test_pprof.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pprof.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
