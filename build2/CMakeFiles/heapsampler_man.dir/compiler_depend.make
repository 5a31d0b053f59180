# Empty custom commands generated dependencies file for heapsampler_man.
# This may be replaced when dependencies are built.
