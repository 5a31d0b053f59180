# Empty dependencies file for test_file_pattern.
# This may be replaced when dependencies are built.
