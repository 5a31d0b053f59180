# Empty dependencies file for heapsampler.
# This may be replaced when dependencies are built.
