# Empty dependencies file for test_live_table.
# This may be replaced when dependencies are built.
