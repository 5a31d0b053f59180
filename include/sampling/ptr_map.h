/* ptr_map.h: a fixed-capacity, insert-only, lock-free map from a non-zero integer key
 * (a jmethodID, a hash) to a pointer.
 *
 * Readers never block and never see a half-written entry (values are published with
 * release/acquire). Used to cache resolved methods by jmethodID. */
#ifndef HS_PTR_MAP_H
#define HS_PTR_MAP_H

#include <stdint.h>

typedef struct hs_ptr_map hs_ptr_map;

hs_ptr_map *hs_ptr_map_create(uint32_t capacity);
void hs_ptr_map_destroy(hs_ptr_map *map);

/* Value for key, or NULL. key must be non-zero. */
void *hs_ptr_map_get(const hs_ptr_map *map, uintptr_t key);

/* Inserts key -> value unless key is present. Returns the value now in the map (the
 * earlier one if another thread won the race), or NULL when the map is full. */
void *hs_ptr_map_put_if_absent(hs_ptr_map *map, uintptr_t key, void *value);

uint32_t hs_ptr_map_size(const hs_ptr_map *map);

/* Calls fn for every entry (not concurrently-safe with respect to seeing new entries:
 * entries added during the walk may or may not be seen). */
void hs_ptr_map_foreach(const hs_ptr_map *map, void (*fn)(uintptr_t key, void *value, void *ctx),
                        void *ctx);

#endif
