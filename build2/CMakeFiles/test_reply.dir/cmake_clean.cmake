file(REMOVE_RECURSE
  "CMakeFiles/test_reply.dir/test/test_reply.c.o"
  "CMakeFiles/test_reply.dir/test/test_reply.c.o.d"
  "CMakeFiles/test_reply.dir/test/unit_main.c.o"
  "CMakeFiles/test_reply.dir/test/unit_main.c.o.d"
  "test_reply"
  "test_reply.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_reply.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
