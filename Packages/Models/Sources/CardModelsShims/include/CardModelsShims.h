// CardModelsShims: the one thing the reorder diff needs that Swift cannot say — a software prefetch.
//
// `__builtin_prefetch` (GCC and Clang) compiles to PREFETCHT0 on x86-64 and PRFM on AArch64: a hint that retires
// at once, so a cache miss on a hash-table slot can be started a dozen keys before the slot is needed without
// stalling the instructions behind it (a plain load would hold its place in the reorder buffer until the data
// arrived). Being `static inline`, both functions are inlined into the Swift callers: no call is made.
#ifndef CARD_MODELS_SHIMS_H
#define CARD_MODELS_SHIMS_H

/// Starts loading the cache line holding `address` for a read, into every cache level.
static inline __attribute__((always_inline)) void cardistry_prefetch_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Starts loading the cache line holding `address` for a write, into every cache level.
static inline __attribute__((always_inline)) void cardistry_prefetch_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
