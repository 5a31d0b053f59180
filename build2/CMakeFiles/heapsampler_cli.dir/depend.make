# Empty dependencies file for heapsampler_cli.
# This may be replaced when dependencies are built.
