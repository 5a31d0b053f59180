# Empty dependencies file for test_collapsed.
# This may be replaced when dependencies are built.
