# Empty dependencies file for test_oom_episode.
# This may be replaced when dependencies are built.
