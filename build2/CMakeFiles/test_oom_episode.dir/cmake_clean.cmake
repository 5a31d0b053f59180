file(REMOVE_RECURSE
  "CMakeFiles/test_oom_episode.dir/test/test_oom_episode.c.o"
  "CMakeFiles/test_oom_episode.dir/test/test_oom_episode.c.o.d"
  "CMakeFiles/test_oom_episode.dir/test/unit_main.c.o"
  "CMakeFiles/test_oom_episode.dir/test/unit_main.c.o.d"
  "test_oom_episode"
  "test_oom_episode.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_oom_episode.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
