file(REMOVE_RECURSE
  "CMakeFiles/heapsampler.dir/src/agent.c.o"
  "CMakeFiles/heapsampler.dir/src/agent.c.o.d"
  "libheapsampler.pdb"
  "libheapsampler.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/heapsampler.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
