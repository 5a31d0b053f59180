# Empty compiler generated dependencies file for hs_cli_core.
# This may be replaced when dependencies are built.
