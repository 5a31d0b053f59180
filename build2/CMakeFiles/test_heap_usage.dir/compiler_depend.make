# Empty compiler generated dependencies file for test_heap_usage.
# This may be replaced when dependencies are built.
