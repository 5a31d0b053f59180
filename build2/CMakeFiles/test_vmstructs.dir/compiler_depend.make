# Empty compiler generated dependencies file for test_vmstructs.
# This may be replaced when dependencies are built.
