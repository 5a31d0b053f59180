# Empty dependencies file for test_pprof.
# This may be replaced when dependencies are built.
