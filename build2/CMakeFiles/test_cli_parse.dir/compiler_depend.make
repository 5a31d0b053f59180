# Empty compiler generated dependencies file for test_cli_parse.
# This may be replaced when dependencies are built.
