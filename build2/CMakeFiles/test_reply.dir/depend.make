# Empty dependencies file for test_reply.
# This may be replaced when dependencies are built.
