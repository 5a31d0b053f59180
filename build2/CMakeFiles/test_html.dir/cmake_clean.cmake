file(REMOVE_RECURSE
  "CMakeFiles/test_html.dir/test/test_html.c.o"
  "CMakeFiles/test_html.dir/test/test_html.c.o.d"
  "CMakeFiles/test_html.dir/test/unit_main.c.o"
  "CMakeFiles/test_html.dir/test/unit_main.c.o.d"
  "test_html"
  "test_html.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_html.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
