# Threads, locks and condition variables, and the most threads a vector of games or an MCTS
# search may use: shared by victorus._vector and victorus._mcts (declarations only, no
# module). The names and signatures are POSIX threads'; portable.h maps them to pthreads on
# POSIX and to Win32 threads, SRW locks and condition variables on Windows.

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
