# Empty dependencies file for test_growth.
# This may be replaced when dependencies are built.
