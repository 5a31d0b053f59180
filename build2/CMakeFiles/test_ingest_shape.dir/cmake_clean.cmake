file(REMOVE_RECURSE
  "CMakeFiles/test_ingest_shape.dir/test/test_ingest_shape.c.o"
  "CMakeFiles/test_ingest_shape.dir/test/test_ingest_shape.c.o.d"
  "CMakeFiles/test_ingest_shape.dir/test/unit_main.c.o"
  "CMakeFiles/test_ingest_shape.dir/test/unit_main.c.o.d"
  "test_ingest_shape"
  "test_ingest_shape.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ingest_shape.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
