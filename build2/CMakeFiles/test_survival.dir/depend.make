# Empty dependencies file for test_survival.
# This may be replaced when dependencies are built.
