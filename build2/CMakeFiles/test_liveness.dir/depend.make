# Empty dependencies file for test_liveness.
# This may be replaced when dependencies are built.
