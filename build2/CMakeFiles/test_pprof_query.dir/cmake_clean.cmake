file(REMOVE_RECURSE
  "CMakeFiles/test_pprof_query.dir/test/test_pprof_query.c.o"
  "CMakeFiles/test_pprof_query.dir/test/test_pprof_query.c.o.d"
  "CMakeFiles/test_pprof_query.dir/test/unit_main.c.o"
  "CMakeFiles/test_pprof_query.dir/test/unit_main.c.o.d"
  "test_pprof_query"
  "test_pprof_query.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pprof_query.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
