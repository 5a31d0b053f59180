# Empty compiler generated dependencies file for hs_reference.
# This may be replaced when dependencies are built.
