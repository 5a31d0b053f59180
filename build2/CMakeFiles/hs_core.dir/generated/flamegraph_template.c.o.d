CMakeFiles/hs_core.dir/generated/flamegraph_template.c.o: \
 /work/wt/integ/build2/generated/flamegraph_template.c \
 /usr/include/stdc-predef.h
