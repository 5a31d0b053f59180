file(REMOVE_RECURSE
  "CMakeFiles/hs_reference.dir/test/hs_reference.c.o"
  "CMakeFiles/hs_reference.dir/test/hs_reference.c.o.d"
  "hs_reference"
  "hs_reference.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/hs_reference.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
