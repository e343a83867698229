/* The few platform services of victorus's C code, one name each (declared to Cython in
 * _portable.pxd, _engine.pxd, _mcts.pxd and _core.pxd):
 *
 *   threads      victorus_thread_create/join, victorus_mutex_*, victorus_cond_*
 *                (pthreads' signatures and results: 0 on success, an errno code otherwise)
 *                and victorus_cond_timedwait_ms (a wait of at most so many milliseconds:
 *                0 when woken, ETIMEDOUT when the time is up)
 *   atomics      victorus_atomic_{load,store,fetch_add,sub_fetch}_int,
 *                victorus_atomic_{load,store}_u64, orders VICTORUS_RELAXED, VICTORUS_SEQ_CST
 *   clock        victorus_now_seconds(): monotonic seconds as a double
 *   bits         victorus_popcount64, victorus_lowest_bit (the argument is not 0)
 *   placement    victorus_current_cpu() (the CPU the caller runs on, -1: unknown) and a
 *                pool thread's victorus_placement_t: _init(p, threads) in the thread
 *                remembers the CPUs it may use, _avoid(p, cpu) keeps it off `cpu` (a CPU
 *                another thread of its pool runs on) when another is allowed and the set
 *                has a CPU for each of the pool's threads, _restore(p) gives it back the
 *                CPUs it had. Linux only, not Android (VICTORUS_PLACEMENT is defined;
 *                it needs _GNU_SOURCE, which Python.h defines); elsewhere the CPU is -1
 *                and keeping off it does nothing
 *
 * POSIX (Linux, macOS) with GCC or Clang: each name is a macro for the call the code made
 * before this header (pthreads, the __atomic builtins, clock_gettime(CLOCK_MONOTONIC),
 * __builtin_popcountll and __builtin_ctzll), so the compiled code is the same;
 * victorus_cond_timedwait_ms is pthread_cond_timedwait at a CLOCK_REALTIME deadline.
 *
 * Windows (_WIN32: MSVC, clang-cl or MinGW): threads from _beginthreadex, slim
 * reader/writer locks and condition variables, Interlocked* atomics,
 * QueryPerformanceCounter, and the __popcnt64 and _BitScanForward64 intrinsics. AMD64 only:
 * __popcnt64 is the POPCNT instruction, which every x86-64 processor since 2008-2010 has
 * (and which -mpopcnt already requires of the Linux x86-64 build).
 */
#ifndef VICTORUS_PORTABLE_H
#define VICTORUS_PORTABLE_H

#if defined(_WIN32)

#if !defined(_M_X64) && !defined(__x86_64__)
#error "victorus on Windows is built for AMD64 (x86-64) only: see src/victorus/portable.h"
#endif

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <intrin.h>
#include <process.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* -- threads ------------------------------------------------------------------------- */

/* A thread: its handle, what it runs, and what that returned (for victorus_thread_join). */
typedef struct victorus_thread {
    HANDLE handle;
    void* (*start)(void*);
    void* arg;
    void* result;
} *victorus_thread_t;

/* The stack a thread reserves (committed as it grows): glibc's default, so a search that
 * recurses as deep on Linux does on Windows. */
#define VICTORUS_THREAD_STACK (8u << 20)

static __inline unsigned __stdcall victorus_thread_main(void* self) {
    victorus_thread_t t = (victorus_thread_t)self;
    t->result = t->start(t->arg);
    return 0;
}

/* attr: NULL only (no thread attributes are supported). */
static __inline int victorus_thread_create(victorus_thread_t* thread, const void* attr,
                                           void* (*start)(void*), void* arg) {
    victorus_thread_t t;
    uintptr_t handle;
    if (attr != NULL)
        return EINVAL;
    t = (victorus_thread_t)malloc(sizeof(*t));
    if (t == NULL)
        return ENOMEM;
    t->start = start;
    t->arg = arg;
    t->result = NULL;
    handle = _beginthreadex(NULL, VICTORUS_THREAD_STACK, victorus_thread_main, t,
                            STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    if (handle == 0) {
        free(t);
        return EAGAIN;
    }
    t->handle = (HANDLE)handle;
    *thread = t;
    return 0;
}

static __inline int victorus_thread_join(victorus_thread_t thread, void** result) {
    if (WaitForSingleObject(thread->handle, INFINITE) != WAIT_OBJECT_0)
        return EINVAL;
    CloseHandle(thread->handle);
    if (result != NULL)
        *result = thread->result;
    free(thread);
    return 0;
}

typedef SRWLOCK victorus_mutex_t;
typedef CONDITION_VARIABLE victorus_cond_t;

/* An SRW lock and a condition variable hold no resources: destroying them is a no-op. */
static __inline int victorus_mutex_init(victorus_mutex_t* mutex, const void* attr) {
    if (attr != NULL)
        return EINVAL;
    InitializeSRWLock(mutex);
    return 0;
}
static __inline int victorus_mutex_destroy(victorus_mutex_t* mutex) { (void)mutex; return 0; }
static __inline int victorus_mutex_lock(victorus_mutex_t* mutex) {
    AcquireSRWLockExclusive(mutex);
    return 0;
}
static __inline int victorus_mutex_unlock(victorus_mutex_t* mutex) {
    ReleaseSRWLockExclusive(mutex);
    return 0;
}
static __inline int victorus_cond_init(victorus_cond_t* cond, const void* attr) {
    if (attr != NULL)
        return EINVAL;
    InitializeConditionVariable(cond);
    return 0;
}
static __inline int victorus_cond_destroy(victorus_cond_t* cond) { (void)cond; return 0; }
static __inline int victorus_cond_wait(victorus_cond_t* cond, victorus_mutex_t* mutex) {
    return SleepConditionVariableSRW(cond, mutex, INFINITE, 0) ? 0 : EINVAL;
}
static __inline int victorus_cond_timedwait_ms(victorus_cond_t* cond, victorus_mutex_t* mutex,
                                               unsigned ms) {
    if (SleepConditionVariableSRW(cond, mutex, ms, 0))
        return 0;
    return GetLastError() == ERROR_TIMEOUT ? ETIMEDOUT : EINVAL;
}
static __inline int victorus_cond_broadcast(victorus_cond_t* cond) {
    WakeAllConditionVariable(cond);
    return 0;
}
static __inline int victorus_cond_signal(victorus_cond_t* cond) {
    WakeConditionVariable(cond);
    return 0;
}

/* -- atomics ------------------------------------------------------------------------- */

/* x86-64: an aligned load or store of 4 or 8 bytes is atomic. Sequentially consistent
 * stores and the read-modify-writes are locked instructions (Interlocked*), so a plain
 * load is sequentially consistent too; the compiler barrier after it (and the volatile
 * access) keeps the compiler from moving other memory accesses across it. */
#if defined(_MSC_VER) && !defined(__clang__)
#define VICTORUS_COMPILER_BARRIER() _ReadWriteBarrier()
#else
#define VICTORUS_COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")
#endif

#define VICTORUS_RELAXED 0
#define VICTORUS_SEQ_CST 5

typedef char victorus_long_is_int[sizeof(LONG) == sizeof(int) ? 1 : -1];

static __inline int victorus_atomic_load_int(const int* ptr, int order) {
    int value = *(const volatile int*)ptr;
    (void)order;
    VICTORUS_COMPILER_BARRIER();
    return value;
}
static __inline void victorus_atomic_store_int(int* ptr, int value, int order) {
    if (order == VICTORUS_RELAXED)
        *(volatile int*)ptr = value;
    else
        InterlockedExchange((volatile LONG*)ptr, value);
}
static __inline int victorus_atomic_fetch_add_int(int* ptr, int value, int order) {
    (void)order;
    return (int)InterlockedExchangeAdd((volatile LONG*)ptr, value);
}
static __inline int victorus_atomic_sub_fetch_int(int* ptr, int value, int order) {
    (void)order;
    return (int)InterlockedExchangeAdd((volatile LONG*)ptr, -value) - value;
}
static __inline uint64_t victorus_atomic_load_u64(const uint64_t* ptr, int order) {
    uint64_t value = *(const volatile uint64_t*)ptr;
    (void)order;
    VICTORUS_COMPILER_BARRIER();
    return value;
}
static __inline void victorus_atomic_store_u64(uint64_t* ptr, uint64_t value, int order) {
    if (order == VICTORUS_RELAXED)
        *(volatile uint64_t*)ptr = value;
    else
        InterlockedExchange64((volatile LONG64*)ptr, (LONG64)value);
}

/* -- clock and bits ------------------------------------------------------------------ */

static __inline double victorus_now_seconds(void) {
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count);
    QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart / (double)frequency.QuadPart;
}

static __inline int victorus_popcount64(unsigned long long x) { return (int)__popcnt64(x); }
static __inline int victorus_lowest_bit(unsigned long long x) {
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
}

#else /* POSIX with GCC or Clang: today's calls, unchanged */

#include <errno.h>
#include <pthread.h>
#include <time.h>

typedef pthread_t victorus_thread_t;
typedef pthread_mutex_t victorus_mutex_t;
typedef pthread_cond_t victorus_cond_t;
#define victorus_thread_create pthread_create
#define victorus_thread_join pthread_join
#define victorus_mutex_init pthread_mutex_init
#define victorus_mutex_destroy pthread_mutex_destroy
#define victorus_mutex_lock pthread_mutex_lock
#define victorus_mutex_unlock pthread_mutex_unlock
#define victorus_cond_init pthread_cond_init
#define victorus_cond_destroy pthread_cond_destroy
#define victorus_cond_wait pthread_cond_wait
#define victorus_cond_broadcast pthread_cond_broadcast
#define victorus_cond_signal pthread_cond_signal

#define VICTORUS_RELAXED __ATOMIC_RELAXED
#define VICTORUS_SEQ_CST __ATOMIC_SEQ_CST
#define victorus_atomic_load_int(ptr, order) __atomic_load_n((ptr), (order))
#define victorus_atomic_store_int(ptr, value, order) __atomic_store_n((ptr), (value), (order))
#define victorus_atomic_fetch_add_int(ptr, value, order) __atomic_fetch_add((ptr), (value), (order))
#define victorus_atomic_sub_fetch_int(ptr, value, order) __atomic_sub_fetch((ptr), (value), (order))
#define victorus_atomic_load_u64(ptr, order) __atomic_load_n((ptr), (order))
#define victorus_atomic_store_u64(ptr, value, order) __atomic_store_n((ptr), (value), (order))

/* The condition variables use the default clock, CLOCK_REALTIME. */
static inline int victorus_cond_timedwait_ms(pthread_cond_t* cond, pthread_mutex_t* mutex,
                                             unsigned ms) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    return pthread_cond_timedwait(cond, mutex, &until);
}

static inline double victorus_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define victorus_popcount64(x) __builtin_popcountll((x))
#define victorus_lowest_bit(x) __builtin_ctzll((x))

#endif

/* -- placement ----------------------------------------------------------------------- */

#if defined(__linux__) && !defined(__ANDROID__) && defined(_GNU_SOURCE)
#include <sched.h>
#define VICTORUS_PLACEMENT 1

/* A pool thread's CPUs: those it may use (its own when it starts, or as set since by
 * someone else: the program, taskset), those it set last, and the CPU it keeps off. */
typedef struct victorus_placement {
    cpu_set_t allowed;
    cpu_set_t set;
    int avoided;                 /* -1: none, the thread has `allowed` */
    int threads;                 /* the pool's: it moves only if each can have a CPU */
} victorus_placement_t;

static inline int victorus_current_cpu(void) { return sched_getcpu(); }

static inline void victorus_placement_init(victorus_placement_t* p, int threads) {
    p->avoided = -1;
    p->threads = threads;
    if (pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), &p->allowed) != 0)
        CPU_ZERO(&p->allowed);
}

/* Whether the thread still has the CPUs this placement gave it; if not, someone else set
 * them, and they are the ones it may use from now on. */
static inline int victorus_placement_untouched(victorus_placement_t* p) {
    cpu_set_t now;
    if (pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), &now) != 0)
        return 0;
    if (CPU_EQUAL(&now, p->avoided < 0 ? &p->allowed : &p->set))
        return 1;
    p->allowed = now;
    p->avoided = -1;
    return 0;
}

/* Keep the calling thread off `cpu` (a CPU another thread of its pool runs on), if it
 * may run elsewhere and the CPUs it may use are enough for the pool's threads. */
static inline void victorus_placement_avoid(victorus_placement_t* p, int cpu) {
    cpu_set_t mask;
    if (cpu == p->avoided || cpu < 0 || cpu >= CPU_SETSIZE || p->threads < 2
            || CPU_COUNT(&p->allowed) < p->threads)
        return;
    victorus_placement_untouched(p);
    if (CPU_COUNT(&p->allowed) < p->threads)
        return;
    mask = p->allowed;
    CPU_CLR(cpu, &mask);                      /* (none cleared if it may not use `cpu`) */
    if (pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &mask) == 0) {
        p->set = mask;                        /* only what it really has */
        p->avoided = cpu;
    }
}

/* The CPUs it may use again (a thread lent to a pool leaves as it came), unless someone
 * else has set its CPUs meanwhile. */
static inline void victorus_placement_restore(victorus_placement_t* p) {
    if (p->avoided >= 0 && victorus_placement_untouched(p)
            && pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &p->allowed) == 0)
        p->avoided = -1;
}
#else /* Windows, macOS, or built without _GNU_SOURCE: the kernel places the threads */
typedef struct victorus_placement { int avoided; } victorus_placement_t;
static __inline int victorus_current_cpu(void) { return -1; }
static __inline void victorus_placement_init(victorus_placement_t* p, int threads) {
    (void)threads;
    p->avoided = -1;
}
static __inline void victorus_placement_avoid(victorus_placement_t* p, int cpu) {
    (void)p;
    (void)cpu;
}
static __inline void victorus_placement_restore(victorus_placement_t* p) { (void)p; }
#endif

#endif /* VICTORUS_PORTABLE_H */
