
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt/integ/build2/generated/flamegraph_template.c" "CMakeFiles/hs_core.dir/generated/flamegraph_template.c.o" "gcc" "CMakeFiles/hs_core.dir/generated/flamegraph_template.c.o.d"
  "/work/wt/integ/src/control/agent_state.c" "CMakeFiles/hs_core.dir/src/control/agent_state.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/agent_state.c.o.d"
  "/work/wt/integ/src/control/agent_thread.c" "CMakeFiles/hs_core.dir/src/control/agent_thread.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/agent_thread.c.o.d"
  "/work/wt/integ/src/control/budget.c" "CMakeFiles/hs_core.dir/src/control/budget.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/budget.c.o.d"
  "/work/wt/integ/src/control/command.c" "CMakeFiles/hs_core.dir/src/control/command.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/command.c.o.d"
  "/work/wt/integ/src/control/control.c" "CMakeFiles/hs_core.dir/src/control/control.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/control.c.o.d"
  "/work/wt/integ/src/control/dump_files.c" "CMakeFiles/hs_core.dir/src/control/dump_files.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/dump_files.c.o.d"
  "/work/wt/integ/src/control/dumps.c" "CMakeFiles/hs_core.dir/src/control/dumps.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/dumps.c.o.d"
  "/work/wt/integ/src/control/faults.c" "CMakeFiles/hs_core.dir/src/control/faults.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/faults.c.o.d"
  "/work/wt/integ/src/control/http_export.c" "CMakeFiles/hs_core.dir/src/control/http_export.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/http_export.c.o.d"
  "/work/wt/integ/src/control/log.c" "CMakeFiles/hs_core.dir/src/control/log.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/log.c.o.d"
  "/work/wt/integ/src/control/oom_episode.c" "CMakeFiles/hs_core.dir/src/control/oom_episode.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/oom_episode.c.o.d"
  "/work/wt/integ/src/control/options.c" "CMakeFiles/hs_core.dir/src/control/options.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/options.c.o.d"
  "/work/wt/integ/src/control/push_export.c" "CMakeFiles/hs_core.dir/src/control/push_export.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/push_export.c.o.d"
  "/work/wt/integ/src/control/report_facts.c" "CMakeFiles/hs_core.dir/src/control/report_facts.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/report_facts.c.o.d"
  "/work/wt/integ/src/control/sampling.c" "CMakeFiles/hs_core.dir/src/control/sampling.c.o" "gcc" "CMakeFiles/hs_core.dir/src/control/sampling.c.o.d"
  "/work/wt/integ/src/export/http_message.c" "CMakeFiles/hs_core.dir/src/export/http_message.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/http_message.c.o.d"
  "/work/wt/integ/src/export/http_server.c" "CMakeFiles/hs_core.dir/src/export/http_server.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/http_server.c.o.d"
  "/work/wt/integ/src/export/ingest_shape.c" "CMakeFiles/hs_core.dir/src/export/ingest_shape.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/ingest_shape.c.o.d"
  "/work/wt/integ/src/export/pprof_query.c" "CMakeFiles/hs_core.dir/src/export/pprof_query.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/pprof_query.c.o.d"
  "/work/wt/integ/src/export/pprof_routes.c" "CMakeFiles/hs_core.dir/src/export/pprof_routes.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/pprof_routes.c.o.d"
  "/work/wt/integ/src/export/push_sink.c" "CMakeFiles/hs_core.dir/src/export/push_sink.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/push_sink.c.o.d"
  "/work/wt/integ/src/export/push_transport.c" "CMakeFiles/hs_core.dir/src/export/push_transport.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/push_transport.c.o.d"
  "/work/wt/integ/src/export/pyroscope_ingest.c" "CMakeFiles/hs_core.dir/src/export/pyroscope_ingest.c.o" "gcc" "CMakeFiles/hs_core.dir/src/export/pyroscope_ingest.c.o.d"
  "/work/wt/integ/src/heap/g1_regions.c" "CMakeFiles/hs_core.dir/src/heap/g1_regions.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/g1_regions.c.o.d"
  "/work/wt/integ/src/heap/gc_counters.c" "CMakeFiles/hs_core.dir/src/heap/gc_counters.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/gc_counters.c.o.d"
  "/work/wt/integ/src/heap/gc_identify.c" "CMakeFiles/hs_core.dir/src/heap/gc_identify.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/gc_identify.c.o.d"
  "/work/wt/integ/src/heap/heap_gcinfo.c" "CMakeFiles/hs_core.dir/src/heap/heap_gcinfo.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/heap_gcinfo.c.o.d"
  "/work/wt/integ/src/heap/heap_usage.c" "CMakeFiles/hs_core.dir/src/heap/heap_usage.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/heap_usage.c.o.d"
  "/work/wt/integ/src/heap/heap_vmstructs.c" "CMakeFiles/hs_core.dir/src/heap/heap_vmstructs.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/heap_vmstructs.c.o.d"
  "/work/wt/integ/src/heap/hotspot_tables.c" "CMakeFiles/hs_core.dir/src/heap/hotspot_tables.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/hotspot_tables.c.o.d"
  "/work/wt/integ/src/heap/jni_util.c" "CMakeFiles/hs_core.dir/src/heap/jni_util.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/jni_util.c.o.d"
  "/work/wt/integ/src/heap/vmstructs.c" "CMakeFiles/hs_core.dir/src/heap/vmstructs.c.o" "gcc" "CMakeFiles/hs_core.dir/src/heap/vmstructs.c.o.d"
  "/work/wt/integ/src/live/growth.c" "CMakeFiles/hs_core.dir/src/live/growth.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/growth.c.o.d"
  "/work/wt/integ/src/live/humongous.c" "CMakeFiles/hs_core.dir/src/live/humongous.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/humongous.c.o.d"
  "/work/wt/integ/src/live/live_age.c" "CMakeFiles/hs_core.dir/src/live/live_age.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/live_age.c.o.d"
  "/work/wt/integ/src/live/live_scale.c" "CMakeFiles/hs_core.dir/src/live/live_scale.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/live_scale.c.o.d"
  "/work/wt/integ/src/live/live_table.c" "CMakeFiles/hs_core.dir/src/live/live_table.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/live_table.c.o.d"
  "/work/wt/integ/src/live/live_tracker.c" "CMakeFiles/hs_core.dir/src/live/live_tracker.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/live_tracker.c.o.d"
  "/work/wt/integ/src/live/liveness.c" "CMakeFiles/hs_core.dir/src/live/liveness.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/liveness.c.o.d"
  "/work/wt/integ/src/live/retention.c" "CMakeFiles/hs_core.dir/src/live/retention.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/retention.c.o.d"
  "/work/wt/integ/src/live/retention_plan.c" "CMakeFiles/hs_core.dir/src/live/retention_plan.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/retention_plan.c.o.d"
  "/work/wt/integ/src/live/suspects.c" "CMakeFiles/hs_core.dir/src/live/suspects.c.o" "gcc" "CMakeFiles/hs_core.dir/src/live/suspects.c.o.d"
  "/work/wt/integ/src/output/collapsed.c" "CMakeFiles/hs_core.dir/src/output/collapsed.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/collapsed.c.o.d"
  "/work/wt/integ/src/output/file_output.c" "CMakeFiles/hs_core.dir/src/output/file_output.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/file_output.c.o.d"
  "/work/wt/integ/src/output/flame_tree.c" "CMakeFiles/hs_core.dir/src/output/flame_tree.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/flame_tree.c.o.d"
  "/work/wt/integ/src/output/html.c" "CMakeFiles/hs_core.dir/src/output/html.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/html.c.o.d"
  "/work/wt/integ/src/output/pprof.c" "CMakeFiles/hs_core.dir/src/output/pprof.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/pprof.c.o.d"
  "/work/wt/integ/src/output/profile.c" "CMakeFiles/hs_core.dir/src/output/profile.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/profile.c.o.d"
  "/work/wt/integ/src/output/profile_output.c" "CMakeFiles/hs_core.dir/src/output/profile_output.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/profile_output.c.o.d"
  "/work/wt/integ/src/output/reply.c" "CMakeFiles/hs_core.dir/src/output/reply.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/reply.c.o.d"
  "/work/wt/integ/src/output/report.c" "CMakeFiles/hs_core.dir/src/output/report.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/report.c.o.d"
  "/work/wt/integ/src/output/snapshot.c" "CMakeFiles/hs_core.dir/src/output/snapshot.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/snapshot.c.o.d"
  "/work/wt/integ/src/output/text.c" "CMakeFiles/hs_core.dir/src/output/text.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/text.c.o.d"
  "/work/wt/integ/src/output/utf8.c" "CMakeFiles/hs_core.dir/src/output/utf8.c.o" "gcc" "CMakeFiles/hs_core.dir/src/output/utf8.c.o.d"
  "/work/wt/integ/src/sampling/arena.c" "CMakeFiles/hs_core.dir/src/sampling/arena.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/arena.c.o.d"
  "/work/wt/integ/src/sampling/big_alloc.c" "CMakeFiles/hs_core.dir/src/sampling/big_alloc.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/big_alloc.c.o.d"
  "/work/wt/integ/src/sampling/class_cache.c" "CMakeFiles/hs_core.dir/src/sampling/class_cache.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/class_cache.c.o.d"
  "/work/wt/integ/src/sampling/estimate.c" "CMakeFiles/hs_core.dir/src/sampling/estimate.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/estimate.c.o.d"
  "/work/wt/integ/src/sampling/interval_control.c" "CMakeFiles/hs_core.dir/src/sampling/interval_control.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/interval_control.c.o.d"
  "/work/wt/integ/src/sampling/jvm_names.c" "CMakeFiles/hs_core.dir/src/sampling/jvm_names.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/jvm_names.c.o.d"
  "/work/wt/integ/src/sampling/overflow.c" "CMakeFiles/hs_core.dir/src/sampling/overflow.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/overflow.c.o.d"
  "/work/wt/integ/src/sampling/ptr_map.c" "CMakeFiles/hs_core.dir/src/sampling/ptr_map.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/ptr_map.c.o.d"
  "/work/wt/integ/src/sampling/sample_table.c" "CMakeFiles/hs_core.dir/src/sampling/sample_table.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/sample_table.c.o.d"
  "/work/wt/integ/src/sampling/sampler.c" "CMakeFiles/hs_core.dir/src/sampling/sampler.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/sampler.c.o.d"
  "/work/wt/integ/src/sampling/sampler_bias.c" "CMakeFiles/hs_core.dir/src/sampling/sampler_bias.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/sampler_bias.c.o.d"
  "/work/wt/integ/src/sampling/stack_store.c" "CMakeFiles/hs_core.dir/src/sampling/stack_store.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/stack_store.c.o.d"
  "/work/wt/integ/src/sampling/survival.c" "CMakeFiles/hs_core.dir/src/sampling/survival.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/survival.c.o.d"
  "/work/wt/integ/src/sampling/symbols.c" "CMakeFiles/hs_core.dir/src/sampling/symbols.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/symbols.c.o.d"
  "/work/wt/integ/src/sampling/thread_names.c" "CMakeFiles/hs_core.dir/src/sampling/thread_names.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/thread_names.c.o.d"
  "/work/wt/integ/src/sampling/throttle.c" "CMakeFiles/hs_core.dir/src/sampling/throttle.c.o" "gcc" "CMakeFiles/hs_core.dir/src/sampling/throttle.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
