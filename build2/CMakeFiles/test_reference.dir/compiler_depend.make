# Empty compiler generated dependencies file for test_reference.
# This may be replaced when dependencies are built.
