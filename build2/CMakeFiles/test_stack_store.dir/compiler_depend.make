# Empty compiler generated dependencies file for test_stack_store.
# This may be replaced when dependencies are built.
