// CardFrontendShims: glibc's heap tuning, which Swift's Glibc module does not export (malloc.h is not part of it),
// and a pipe's capacity (Linux's F_SETPIPE_SZ, which it exports only under _GNU_SOURCE).
//
// `ProcessMemory` and `POSIXIO` (CardFrontend) call these; the heap's constants come from <malloc.h> itself, not
// copied numbers. On a C library without mallopt/malloc_trim (not glibc) those do nothing, and on a system without
// F_SETPIPE_SZ (not Linux) the pipe keeps its size. Being `static inline`, they are compiled into the Swift callers.
#ifndef CARD_FRONTEND_SHIMS_H
#define CARD_FRONTEND_SHIMS_H

#include <stdlib.h>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <fcntl.h>
// fcntl(2): F_SETPIPE_SZ and F_GETPIPE_SZ are F_LINUX_SPECIFIC_BASE (1024) + 7 and + 8, since Linux 2.6.35.
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#endif
#ifndef F_GETPIPE_SZ
#define F_GETPIPE_SZ 1032
#endif
#endif

/// Serves blocks up to `mmap_threshold` bytes from the heap (M_MMAP_THRESHOLD), keeps up to `trim_threshold`
/// bytes of free heap before giving it back (M_TRIM_THRESHOLD), and uses at most `arenas` arenas
/// (M_ARENA_MAX). Returns 1 when every setting was taken, 0 otherwise (or where there is no mallopt).
static inline int cardistry_heap_configure(int mmap_threshold, int trim_threshold, int arenas) {
#if defined(__GLIBC__)
    int ok = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, trim_threshold);
    ok &= mallopt(M_ARENA_MAX, arenas);
    return ok != 0;
#else
    (void)mmap_threshold;
    (void)trim_threshold;
    (void)arenas;
    return 0;
#endif
}

/// Gives the heap's free pages back to the system (`malloc_trim(0)`); 1 when some memory was released.
static inline int cardistry_heap_release_freed(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

/// The bytes the heap holds free (mallinfo2's `fordblks`, glibc 2.33 and later: what `malloc_trim(0)` may give
/// back) into `free`, and the heap's size (`arena`) into `total`; both 0 where they cannot be read.
static inline void cardistry_heap_usage(size_t *free, size_t *total) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    *free = info.fordblks;
    *total = info.arena;
#else
    *free = 0;
    *total = 0;
#endif
}

/// Asks for `fd`'s pipe to hold `bytes` (fcntl F_SETPIPE_SZ; an unprivileged process may ask up to
/// /proc/sys/fs/pipe-max-size, 1 MiB by default). Returns the capacity the pipe has afterwards, or -1 when `fd` is
/// not a pipe, the size was refused, or there is no such call (then the pipe keeps its size).
static inline int cardistry_pipe_set_capacity(int fd, int bytes) {
#if defined(__linux__)
    if (fcntl(fd, F_SETPIPE_SZ, bytes) < 0) return -1;
    return fcntl(fd, F_GETPIPE_SZ);
#else
    (void)fd;
    (void)bytes;
    return -1;
#endif
}

/// The capacity of `fd`'s pipe in bytes (fcntl F_GETPIPE_SZ), or -1 when `fd` is not a pipe or it cannot be read.
static inline int cardistry_pipe_capacity(int fd) {
#if defined(__linux__)
    return fcntl(fd, F_GETPIPE_SZ);
#else
    (void)fd;
    return -1;
#endif
}

#endif
