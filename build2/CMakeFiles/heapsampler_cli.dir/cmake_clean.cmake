file(REMOVE_RECURSE
  "CMakeFiles/heapsampler_cli.dir/src/cli/main.c.o"
  "CMakeFiles/heapsampler_cli.dir/src/cli/main.c.o.d"
  "heapsampler"
  "heapsampler.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/heapsampler_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
