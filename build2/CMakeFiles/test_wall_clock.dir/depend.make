# Empty dependencies file for test_wall_clock.
# This may be replaced when dependencies are built.
