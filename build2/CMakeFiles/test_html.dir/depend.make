# Empty dependencies file for test_html.
# This may be replaced when dependencies are built.
