# Empty dependencies file for test_throttle.
# This may be replaced when dependencies are built.
