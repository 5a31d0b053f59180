file(REMOVE_RECURSE
  "CMakeFiles/test_sampler_bias.dir/test/test_sampler_bias.c.o"
  "CMakeFiles/test_sampler_bias.dir/test/test_sampler_bias.c.o.d"
  "CMakeFiles/test_sampler_bias.dir/test/unit_main.c.o"
  "CMakeFiles/test_sampler_bias.dir/test/unit_main.c.o.d"
  "test_sampler_bias"
  "test_sampler_bias.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sampler_bias.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
