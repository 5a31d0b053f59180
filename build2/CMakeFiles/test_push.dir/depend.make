# Empty dependencies file for test_push.
# This may be replaced when dependencies are built.
