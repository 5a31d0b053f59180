# Empty dependencies file for test_flame_tree.
# This may be replaced when dependencies are built.
