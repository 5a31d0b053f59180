# Empty compiler generated dependencies file for test_class_cache.
# This may be replaced when dependencies are built.
