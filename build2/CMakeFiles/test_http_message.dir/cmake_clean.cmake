file(REMOVE_RECURSE
  "CMakeFiles/test_http_message.dir/test/test_http_message.c.o"
  "CMakeFiles/test_http_message.dir/test/test_http_message.c.o.d"
  "CMakeFiles/test_http_message.dir/test/unit_main.c.o"
  "CMakeFiles/test_http_message.dir/test/unit_main.c.o.d"
  "test_http_message"
  "test_http_message.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_http_message.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
