# Empty compiler generated dependencies file for test_pprof_query.
# This may be replaced when dependencies are built.
