/* hash.h: the one integer mixing function the agent's hash tables and random numbers use. */
#ifndef HS_HASH_H
#define HS_HASH_H

#include <stdint.h>

/* splitmix64's finalizer: a bijective mix in which every input bit affects every output
 * bit, so keys that differ only a little (aligned pointers, small ids) spread evenly over
 * the low bits a power-of-two table indexes with. */
static inline uint64_t hs_mix64(uint64_t x) {
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

#endif
