# Empty dependencies file for test_cli_files.
# This may be replaced when dependencies are built.
