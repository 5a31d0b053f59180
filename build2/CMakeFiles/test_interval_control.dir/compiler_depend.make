# Empty compiler generated dependencies file for test_interval_control.
# This may be replaced when dependencies are built.
