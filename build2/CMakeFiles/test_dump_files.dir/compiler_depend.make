# Empty compiler generated dependencies file for test_dump_files.
# This may be replaced when dependencies are built.
