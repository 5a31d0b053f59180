file(REMOVE_RECURSE
  "CMakeFiles/heapsampler_man"
  "heapsampler.1.gz"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/heapsampler_man.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
