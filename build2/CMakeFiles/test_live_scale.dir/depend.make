# Empty dependencies file for test_live_scale.
# This may be replaced when dependencies are built.
