# Empty dependencies file for test_estimate.
# This may be replaced when dependencies are built.
