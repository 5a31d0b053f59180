# Empty dependencies file for test_retention.
# This may be replaced when dependencies are built.
