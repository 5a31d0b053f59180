/* musl_load.c: a musl program that loads the musl agent as a JVM would (dlopen, RTLD_NOW:
 * every symbol resolved now, by musl's dynamic linker) and finds its three entry points.
 * No musl JVM exists on Debian; this is as far as the agent goes without one.
 *
 *   musl-gcc -o musl-load test/platforms/musl_load.c && ./musl-load build-musl/libheapsampler.so */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: musl-load LIBRARY\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "musl-load: %s\n", dlerror());
        return 1;
    }
    static const char *const entries[] = {"Agent_OnLoad", "Agent_OnAttach", "Agent_OnUnload"};
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        if (!dlsym(lib, entries[i])) {
            fprintf(stderr, "musl-load: %s missing: %s\n", entries[i], dlerror());
            return 1;
        }
    }
    printf("a musl program loaded it (dlopen RTLD_NOW) and found Agent_OnLoad, Agent_OnAttach, Agent_OnUnload\n");
    return 0;
}
