# Empty compiler generated dependencies file for test_http_message.
# This may be replaced when dependencies are built.
