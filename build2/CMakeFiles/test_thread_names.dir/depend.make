# Empty dependencies file for test_thread_names.
# This may be replaced when dependencies are built.
