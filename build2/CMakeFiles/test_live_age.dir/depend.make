# Empty dependencies file for test_live_age.
# This may be replaced when dependencies are built.
