# Empty compiler generated dependencies file for test_ptr_map.
# This may be replaced when dependencies are built.
