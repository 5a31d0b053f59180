# Empty compiler generated dependencies file for test_file_output.
# This may be replaced when dependencies are built.
