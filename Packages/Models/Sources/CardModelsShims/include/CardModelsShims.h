// CardModelsShims: the two things Swift cannot say — a software prefetch (the reorder diff's) and a spin-wait hint
// (`TwoThreadsWorker`'s).
//
// `__builtin_prefetch` (GCC and Clang) compiles to PREFETCHT0 on x86-64 and PRFM on AArch64: a hint that retires
// at once, so a cache miss on a hash-table slot can be started a dozen keys before the slot is needed without
// stalling the instructions behind it (a plain load would hold its place in the reorder buffer until the data
// arrived). Being `static inline`, both functions are inlined into the Swift callers: no call is made.
#ifndef CARD_MODELS_SHIMS_H
#define CARD_MODELS_SHIMS_H

#if defined(__linux__)
#include <sys/prctl.h>
#endif

/// Starts loading the cache line holding `address` for a read, into every cache level.
static inline __attribute__((always_inline)) void cardistry_prefetch_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Starts loading the cache line holding `address` for a write, into every cache level.
static inline __attribute__((always_inline)) void cardistry_prefetch_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

/// Names the calling thread (`prctl(PR_SET_NAME)`, at most 15 bytes; Linux only), as `perf` and `top -H` show it.
static inline void cardistry_name_this_thread(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    (void)name;
#endif
}

/// Tells the processor that this thread is spinning on a value another thread will change (PAUSE on x86-64, YIELD
/// on AArch64): it stops issuing for a few dozen cycles, which frees the core's resources for its sibling and
/// avoids the penalty of a mispredicted loop exit. `TwoThreadsWorker`'s waits use it.
static inline __attribute__((always_inline)) void cardistry_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
