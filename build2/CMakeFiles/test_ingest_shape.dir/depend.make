# Empty dependencies file for test_ingest_shape.
# This may be replaced when dependencies are built.
