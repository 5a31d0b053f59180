# Empty compiler generated dependencies file for test_http_server.
# This may be replaced when dependencies are built.
