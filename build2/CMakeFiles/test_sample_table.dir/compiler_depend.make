# Empty compiler generated dependencies file for test_sample_table.
# This may be replaced when dependencies are built.
