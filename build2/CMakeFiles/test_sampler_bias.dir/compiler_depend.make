# Empty compiler generated dependencies file for test_sampler_bias.
# This may be replaced when dependencies are built.
