# Empty dependencies file for test_overflow.
# This may be replaced when dependencies are built.
