# Empty dependencies file for hs_core.
# This may be replaced when dependencies are built.
