# Empty dependencies file for test_profile.
# This may be replaced when dependencies are built.
