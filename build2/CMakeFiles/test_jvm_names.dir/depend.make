# Empty dependencies file for test_jvm_names.
# This may be replaced when dependencies are built.
