file(REMOVE_RECURSE
  "CMakeFiles/test_http_server.dir/test/test_http_server.c.o"
  "CMakeFiles/test_http_server.dir/test/test_http_server.c.o.d"
  "CMakeFiles/test_http_server.dir/test/unit_main.c.o"
  "CMakeFiles/test_http_server.dir/test/unit_main.c.o.d"
  "test_http_server"
  "test_http_server.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_http_server.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
