# The platform, declared once (portable.h; declarations only, no module): threads, locks
# and condition variables, CPU placement, atomics, the monotonic clock and bit counts, and
# the most threads a vector of games, perft or a search may use. The thread names and
# signatures are POSIX threads'; portable.h maps them to pthreads, the __atomic builtins
# of GCC and Clang and clock_gettime on POSIX, and to Win32 threads, SRW locks, Interlocked*,
# QueryPerformanceCounter and MSVC intrinsics on Windows.

from libc.stdint cimport uint64_t

cdef extern from "portable.h" nogil:
    ctypedef struct pthread_t "victorus_thread_t":
        pass
    ctypedef struct pthread_mutex_t "victorus_mutex_t":
        pass
    ctypedef struct pthread_cond_t "victorus_cond_t":
        pass
    int pthread_create "victorus_thread_create"(
        pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join "victorus_thread_join"(pthread_t thread, void** result)
    int pthread_mutex_init "victorus_mutex_init"(pthread_mutex_t* mutex, const void* attr)
    int pthread_mutex_destroy "victorus_mutex_destroy"(pthread_mutex_t* mutex)
    int pthread_mutex_lock "victorus_mutex_lock"(pthread_mutex_t* mutex)
    int pthread_mutex_unlock "victorus_mutex_unlock"(pthread_mutex_t* mutex)
    int pthread_cond_init "victorus_cond_init"(pthread_cond_t* cond, const void* attr)
    int pthread_cond_destroy "victorus_cond_destroy"(pthread_cond_t* cond)
    int pthread_cond_wait "victorus_cond_wait"(pthread_cond_t* cond, pthread_mutex_t* mutex)
    int pthread_cond_timedwait_ms "victorus_cond_timedwait_ms"(
        pthread_cond_t* cond, pthread_mutex_t* mutex, unsigned ms)
    int pthread_cond_broadcast "victorus_cond_broadcast"(pthread_cond_t* cond)
    int pthread_cond_signal "victorus_cond_signal"(pthread_cond_t* cond)

    ctypedef struct placement_t "victorus_placement_t":
        pass
    int current_cpu "victorus_current_cpu"()
    void placement_init "victorus_placement_init"(placement_t* p, int threads)
    void placement_avoid "victorus_placement_avoid"(placement_t* p, int cpu)
    void placement_restore "victorus_placement_restore"(placement_t* p)

cdef enum:
    MAX_THREADS = 64

# Atomics on int and uint64_t, with a memory order (SEQ_CST or RELAXED).
cdef extern from "portable.h" nogil:
    int atomic_load "victorus_atomic_load_int"(const int* ptr, int order) noexcept
    void atomic_store "victorus_atomic_store_int"(int* ptr, int value, int order) noexcept
    int atomic_fetch_add "victorus_atomic_fetch_add_int"(int* ptr, int value, int order) noexcept
    int atomic_sub_fetch "victorus_atomic_sub_fetch_int"(int* ptr, int value, int order) noexcept
    uint64_t load_u64 "victorus_atomic_load_u64"(uint64_t* ptr, int order) noexcept
    void store_u64 "victorus_atomic_store_u64"(uint64_t* ptr, uint64_t value, int order) noexcept
    int SEQ_CST "VICTORUS_SEQ_CST"
    int RELAXED "VICTORUS_RELAXED"

# Monotonic seconds.
cdef extern from "portable.h":
    double now_seconds "victorus_now_seconds"() noexcept nogil

# Bit counts; lowest_bit(0) is undefined.
cdef extern from "portable.h":
    int popcount64 "victorus_popcount64"(unsigned long long) noexcept nogil
    int lowest_bit "victorus_lowest_bit"(unsigned long long) noexcept nogil
