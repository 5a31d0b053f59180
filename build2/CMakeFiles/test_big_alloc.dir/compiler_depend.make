# Empty compiler generated dependencies file for test_big_alloc.
# This may be replaced when dependencies are built.
