# Empty compiler generated dependencies file for test_utf8.
# This may be replaced when dependencies are built.
