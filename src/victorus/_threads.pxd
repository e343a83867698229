# POSIX threads, and the most threads a vector of games or an MCTS search may use: shared
# by victorus._vector and victorus._mcts (declarations only, no module).

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)
    int pthread_mutex_init(pthread_mutex_t* mutex, const void* attr)
    int pthread_mutex_destroy(pthread_mutex_t* mutex)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)
    int pthread_cond_init(pthread_cond_t* cond, const void* attr)
    int pthread_cond_destroy(pthread_cond_t* cond)
    int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex)
    int pthread_cond_broadcast(pthread_cond_t* cond)
    int pthread_cond_signal(pthread_cond_t* cond)

cdef enum:
    MAX_THREADS = 64
