/* ns_path.c: reading /proc texts and mapping paths between namespaces (see ns_path.h). */
#include "ns_path.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line of text starting with key (e.g. "NSpid:"), or NULL. */
static const char *find_line(const char *text, const char *key) {
    size_t key_len = strlen(key);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, key, key_len) == 0) return p + key_len;
        p = strchr(p, '\n');
        if (p) p++;
    }
    return NULL;
}

int cli_status_nspid(const char *status, int host_pid) {
    const char *p = find_line(status, "NSpid:");
    if (!p) return host_pid;
    long last = -1;
    while (*p && *p != '\n') {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        if (!errno && v > 0 && v <= INT_MAX) last = v;
        p = end;
    }
    return last > 0 ? (int)last : host_pid;
}

/* The second number on the line after key. */
static int second_field(const char *status, const char *key, unsigned long *out) {
    const char *p = find_line(status, key);
    if (!p) return -1;
    char *end;
    strtoul(p, &end, 10);
    if (end == p) return -1;
    p = end;
    *out = strtoul(p, &end, 10);
    return end == p ? -1 : 0;
}

int cli_status_ids(const char *status, uid_t *euid, gid_t *egid) {
    unsigned long u, g;
    if (second_field(status, "Uid:", &u) != 0 || second_field(status, "Gid:", &g) != 0) return -1;
    *euid = (uid_t)u;
    *egid = (gid_t)g;
    return 0;
}

bool cli_status_catches_sigquit(const char *status) {
    const char *p = find_line(status, "SigCgt:");
    if (!p) return false;
    unsigned long long mask = strtoull(p, NULL, 16);
    return (mask >> (3 - 1)) & 1; /* SIGQUIT is 3; bit n-1 */
}

/* The state letter of the "State:" line, or '?'. */
static char state_letter(const char *status) {
    const char *p = find_line(status, "State:");
    if (!p) return '?';
    while (*p == ' ' || *p == '\t') p++;
    return *p ? *p : '?';
}

bool cli_status_stopped(const char *status) {
    char s = state_letter(status);
    return s == 'T' || s == 't';
}

bool cli_status_exited(const char *status) {
    char s = state_letter(status);
    return s == 'Z' || s == 'X';
}

bool cli_status_has_memory(const char *status) { return find_line(status, "VmSize:") != NULL; }

long cli_status_tracer(const char *status) {
    const char *p = find_line(status, "TracerPid:");
    if (!p) return -1;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    return end == p || errno || v < 0 ? -1 : v;
}

int cli_stat_parse(const char *stat, char *state, unsigned long long *start_time) {
    const char *p = strrchr(stat, ')');
    if (!p || p[1] != ' ' || !p[2]) return -1;
    *state = p[2];
    p += 3;
    /* fields 4..21 then starttime (22): skip 18 numbers */
    for (int field = 4; field <= 21; field++) {
        while (*p == ' ') p++;
        if (!*p || *p == '\n') return -1;
        p += strcspn(p, " \n");
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || errno) return -1;
    *start_time = v;
    return 0;
}

int cli_status_groups(const char *status, gid_t *groups, int max) {
    const char *p = find_line(status, "Groups:");
    if (!p) return -1;
    int n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '\n') return n;
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || n >= max || v > (gid_t)-2) return -1;
        groups[n++] = (gid_t)v;
        p = end;
    }
}

long long cli_status_caps(const char *status, const char *key) {
    const char *p = find_line(status, key);
    if (!p) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 16);
    if (end == p || errno || v > (unsigned long long)LLONG_MAX) return -1;
    return (long long)v;
}

int cli_id_inside(const char *map, unsigned long host_id, unsigned long *inside) {
    for (const char *p = map; p && *p;) {
        unsigned long in, out, count;
        if (sscanf(p, " %lu %lu %lu", &in, &out, &count) == 3 && host_id >= out && host_id - out < count) {
            *inside = in + (host_id - out);
            return 0;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return -1;
}

bool cli_maps_find(const char *maps, const char *name, char *out, size_t len) {
    size_t name_len = strlen(name);
    for (const char *p = maps; p && *p;) {
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        const char *path = memchr(p, '/', (size_t)(e - p));
        if (path) {
            size_t n = (size_t)(e - path);
            static const char deleted[] = " (deleted)";
            if (n > sizeof deleted - 1 && memcmp(e - (sizeof deleted - 1), deleted, sizeof deleted - 1) == 0)
                n -= sizeof deleted - 1;
            if (n > name_len && path[n - name_len - 1] == '/' &&
                memcmp(path + n - name_len, name, name_len) == 0 && n < len) {
                memcpy(out, path, n);
                out[n] = '\0';
                return true;
            }
        }
        p = *e ? e + 1 : e;
    }
    return false;
}

int cli_java_home(const char *libjvm, char *out, size_t len) {
    const char *lib = NULL;
    for (const char *p = strstr(libjvm, "/lib/"); p; p = strstr(p + 1, "/lib/")) lib = p;
    if (!lib || lib == libjvm) return -1;
    size_t n = (size_t)(lib - libjvm);
    if (n >= 4 && strncmp(lib - 4, "/jre", 4) == 0) n -= 4; /* JDK 8: home/jre/lib/... */
    if (n == 0 || n >= len) return -1;
    memcpy(out, libjvm, n);
    out[n] = '\0';
    return 0;
}

bool cli_release_version(const char *release, char *out, size_t len) {
    const char *p = find_line(release, "JAVA_VERSION=");
    if (!p) return false;
    if (*p == '"') p++;
    size_t n = strcspn(p, "\"\n\r");
    if (n == 0 || n >= len) return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

int cli_copied_lib_dir(char *out, size_t len, const char *version) {
    int n = snprintf(out, len, "/tmp/heapsampler-%s", version);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cli_copied_lib_path(char *out, size_t len, const char *version) {
    int n = snprintf(out, len, "/tmp/heapsampler-%s/libheapsampler.so", version);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

bool cli_args_disable_attach(const char *args, size_t len, char sep, bool *seen) {
    bool disabled = false;
    *seen = false;
    static const char opt[] = "DisableAttachMechanism";
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && args[j] != sep && args[j] != '\0') j++;
        size_t n = j - i;
        const char *a = args + i;
        if (n == 5 + sizeof opt - 1 && strncmp(a, "-XX:", 4) == 0 && (a[4] == '+' || a[4] == '-') &&
            strncmp(a + 5, opt, sizeof opt - 1) == 0) {
            *seen = true;
            disabled = a[4] == '+';
        }
        i = j + 1;
    }
    return disabled;
}
