/* copies.c: finding the running copy of this library among the process's loaded objects
 * (see copies.h).
 *
 * The loaded objects' names are collected first (dl_iterate_phdr holds the loader's lock:
 * no dlopen inside its callback); each is then opened with RTLD_NOLOAD, which only finds an
 * object already loaded (never loads one, never runs a constructor), and asked for the
 * marker. Our own marker is recognised by its address and skipped. Runs at startup and on
 * attach only, never on the allocation path. */
#include "control/copies.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loaded objects looked at, at most (a JVM has a few dozen). */
#define MAX_OBJECTS 512

typedef struct {
    char (*names)[PATH_MAX];
    size_t count;
} object_list;

static int collect(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    object_list *list = data;
    if (info->dlpi_name && info->dlpi_name[0] && list->count < MAX_OBJECTS)
        snprintf(list->names[list->count++], PATH_MAX, "%s", info->dlpi_name);
    return 0;
}

bool hs_copies_find_running(hs_copy_marker_fn self, hs_copy *out) {
    object_list list = {.names = calloc(MAX_OBJECTS, PATH_MAX)};
    if (!list.names) return false;
    dl_iterate_phdr(collect, &list);
    bool found = false;
    for (size_t i = 0; i < list.count && !found; i++) {
        void *handle = dlopen(list.names[i], RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
        if (!handle) continue;
        hs_copy_marker_fn marker;
        hs_copy_attach_fn attach;
        *(void **)&marker = dlsym(handle, HS_COPY_MARKER); /* POSIX's way to a function */
        *(void **)&attach = dlsym(handle, "Agent_OnAttach");
        if (marker && marker != self && attach && marker()) {
            snprintf(out->path, sizeof out->path, "%s", list.names[i]);
            out->on_attach = attach;
            found = true;
        }
        dlclose(handle); /* the running copy stays loaded: the JVM holds it */
    }
    free(list.names);
    return found;
}

void hs_copies_own_path(hs_copy_marker_fn self, char *out, size_t len) {
    Dl_info info;
    if (dladdr((void *)(uintptr_t)self, &info) && info.dli_fname) snprintf(out, len, "%s", info.dli_fname);
    else if (len) out[0] = '\0';
}
