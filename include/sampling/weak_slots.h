/* weak_slots.h: a lock-free table of slots that each hold a JNI weak ref to a class, found
 * in bounded probe windows, and reclaimed once the ref is cleared (the class was unloaded)
 * behind a grace period. The class cache (allocated classes by identity, class_cache.h) and
 * the method table (jmethodIDs by their declaring class, method_table.h) are both built on
 * it, so a program that keeps defining and unloading classes keeps reusing the same slots.
 *
 * A slot holds a key and a value (the user's: an identity hash and a class id; a jmethodID
 * and its resolved names) and the weak ref that says whether its class is still loaded.
 * Lookups run inside a reader bracket (enter/leave: a striped counter per epoch parity) and
 * may read a READY slot's ref and value there. The reclaimer, one thread at a time, marks
 * the slots of unloaded classes DEAD, flips the epoch, and deletes their refs only once
 * every reader of the old parity has left; a reader that does not leave soon only delays
 * the deletion to a later reclaim. Nobody waits long, nothing is deleted early.
 *
 * The JVM is reached only through hs_weak_ref_ops, so unit tests drive it with fakes. */
#ifndef HS_WEAK_SLOTS_H
#define HS_WEAK_SLOTS_H

#include <jni.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Slots a lookup looks at, at most. */
#define HS_WEAK_WINDOW 32

typedef struct {
    atomic_int state; /* private to weak_slots.c */
    _Atomic uint64_t key; /* set when the slot is claimed, before it is published */
    jweak ref;
    uintptr_t value;
} hs_weak_slot;

typedef struct {
    bool (*cleared)(void *ctx, jweak ref); /* the class was unloaded */
    void (*delete_ref)(void *ctx, jweak ref);
} hs_weak_ref_ops;

/* Whether a READY slot whose key equals the one sought is the entry sought (classes: its
 * ref designates the class; NULL: the key alone decides). Called inside a reader bracket. */
typedef bool (*hs_weak_match)(void *ctx, const hs_weak_slot *slot);

typedef struct hs_weak_slots hs_weak_slots;

/* Room for `entries` live entries at half load (slots: a power of two >= 2 x entries).
 * NULL on ENOMEM or an entry count above 2^28. */
hs_weak_slots *hs_weak_slots_create(uint32_t entries);
/* Deletes the remaining refs through ops (when non-NULL), then frees the table. */
void hs_weak_slots_destroy(hs_weak_slots *slots, const hs_weak_ref_ops *ops, void *ctx);

/* A reader bracket: slots seen READY inside it are not reclaimed before it is left. */
typedef struct {
    _Atomic long *counter;
} hs_weak_reader;
hs_weak_reader hs_weak_slots_enter(hs_weak_slots *slots);
void hs_weak_slots_leave(hs_weak_reader reader);

/* Inside a bracket: the value of the READY slot of key's window that holds key (and that
 * match accepts), true; else false, with *open (when non-NULL) the first EMPTY or FREE slot
 * of the window, NULL if none. */
bool hs_weak_slots_find(hs_weak_slots *slots, uint64_t key, hs_weak_match match, void *ctx,
                        uintptr_t *value, hs_weak_slot **open);

typedef enum {
    HS_WEAK_FOUND,   /* *value set */
    HS_WEAK_CLAIMED, /* *claimed is the caller's to publish or abandon */
    HS_WEAK_FULL,    /* no room in the window */
    HS_WEAK_PENDING, /* match NULL only: another thread is registering key right now */
} hs_weak_lookup_result;

/* Brackets a find; when key is absent, claims a free slot of its window for the caller,
 * who registers the entry (hs_weak_slots_publish) or gives up (hs_weak_slots_abandon), and
 * then calls hs_weak_slots_reclaim_some. Bounded work in every table state.
 * With match NULL (the key alone decides) the claim has a single winner: two threads
 * claiming one key at once never both get a slot for it; the loser gets HS_WEAK_FOUND
 * (the winner's value) or HS_WEAK_PENDING (the winner has not published yet: the caller
 * computes the value for itself and registers nothing), so a key never has two entries. */
hs_weak_lookup_result hs_weak_slots_lookup(hs_weak_slots *slots, uint64_t key, hs_weak_match match,
                                           void *ctx, uintptr_t *value, hs_weak_slot **claimed);
void hs_weak_slots_publish(hs_weak_slots *slots, hs_weak_slot *claimed, uint64_t key, jweak ref,
                           uintptr_t value);
void hs_weak_slots_abandon(hs_weak_slot *claimed);

/* ---- objects by identity (classes, threads) --------------------------------------------
 * An object is found by its identity hash (the key) in its window and confirmed by its
 * weak ref (same()); on first sight its value is computed and registered with a new weak
 * ref. hs_class_cache is built on this. */
typedef struct {
    int (*hash)(void *ctx, jobject obj, jint *out); /* identity hash: 0, or an error code */
    jweak (*new_ref)(void *ctx, jobject obj);       /* NULL on failure */
    bool (*same)(void *ctx, jweak ref, jobject obj); /* ref still designates obj */
    bool (*cleared)(void *ctx, jweak ref);           /* obj was collected (a class: unloaded) */
    void (*delete_ref)(void *ctx, jweak ref);
} hs_identity_ops;

/* The value of an object seen for the first time (value_ctx: the caller's): non-zero, or 0
 * with *error set. */
typedef uintptr_t (*hs_identity_value_fn)(void *value_ctx, jobject obj, int *error);

/* The value of obj: HS_WEAK_FOUND (registered before), HS_WEAK_CLAIMED (computed now and
 * registered, or, when value_of or the weak ref failed, computed but not registered: *value
 * 0 with *error set, or the value), HS_WEAK_FULL (no room: *value untouched). -1 when the
 * identity hash fails (*error set). A new or crowded object pays for checking a few slots
 * for collected objects. */
int hs_weak_slots_identity(hs_weak_slots *slots, const hs_identity_ops *ops, void *ctx,
                           jobject obj, hs_identity_value_fn value_of, void *value_ctx,
                           uintptr_t *value, int *error);

/* Checks the next few slots for cleared refs and reclaims them (now, or at a later call if
 * readers are still inside: it never waits, it runs on application threads). At most one
 * thread at a time reclaims; others return. */
void hs_weak_slots_reclaim_some(hs_weak_slots *slots, const hs_weak_ref_ops *ops, void *ctx);

/* Slots made free again so far; entries present now (live, or unloaded not yet reclaimed). */
uint64_t hs_weak_slots_reclaimed(const hs_weak_slots *slots);
uint32_t hs_weak_slots_resident(const hs_weak_slots *slots);
/* Values computed but not registered because the JVM made no weak ref (said once). */
uint64_t hs_weak_slots_ref_failures(const hs_weak_slots *slots);

/* Tests only: called by a reader between reading the epoch and counting itself in (NULL,
 * the default: nothing), to widen that window in a race test. */
void hs_weak_slots_set_reader_pause(void (*pause)(void));

#endif
