/* perfdata.h: what a JVM's hsperfdata file says about attach (pure).
 *
 * HotSpot publishes its performance counters in /tmp/hsperfdata_<user>/<pid> (unless
 * -XX:-UsePerfData): a prologue (magic CA FE C0 C0, byte order, version 2, entry offset
 * and count) then entries (length, name offset, vector length, type, data offset). The
 * string counter sun.rt.jvmCapabilities starts with '1' when the JVM supports attach and
 * '0' when -XX:+DisableAttachMechanism is in force, wherever the flag came from (the
 * command line, JAVA_TOOL_OPTIONS, -XX:Flags=, -XX:VMOptionsFile=). The file belongs to
 * the target's user: every offset is checked against the bytes read. */
#ifndef HS_CLI_PERFDATA_H
#define HS_CLI_PERFDATA_H

#include <stddef.h>

#define CLI_PERFDATA_MAX (4u << 20)

/* 1: attach supported, 0: disabled, -1: cannot tell (not a perfdata file, not yet
 * initialized, no such counter, cut short). */
int cli_perfdata_attach(const unsigned char *buf, size_t len);

#endif
