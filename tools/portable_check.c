/* Exercises every service of src/victorus/portable.h: threads started and joined (with
 * their results), a mutex and condition-variable handshake and a timed wait, the atomics,
 * the monotonic clock, the bit counts on their edge values, and a pool thread keeping off
 * its caller's CPU. Built and run by
 * tests/test_portable.py with the host's gcc (the POSIX path) and, when MinGW-w64 is
 * installed, cross-compiled for Windows (the Win32 path) and run under Wine.
 *
 *   gcc -O2 -Wall -Wextra -Werror -pthread -Isrc/victorus tools/portable_check.c
 *   x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -static -Isrc/victorus tools/portable_check.c
 *
 * Prints one line naming the path compiled and the checks passed; exits 1 at the first
 * failed check, naming it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE                  /* as Python.h defines it for the extensions */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "portable.h"

#if defined(__linux__) && !defined(__ANDROID__) && !defined(VICTORUS_PLACEMENT)
#error "portable.h: Linux builds keep pool threads off their caller's CPU"
#endif

#define THREADS 8
#define ADDS 100000
#define ROUNDS 2000

static int checks;

static void check(int ok, const char* what, long long got, long long wanted) {
    checks++;
    if (!ok) {
        printf("FAILED: %s: got %lld, wanted %lld\n", what, got, wanted);
        exit(1);
    }
}

/* Each argument is evaluated once (a read-modify-write is checked once). */
static void check_eq(const char* what, long long got, long long wanted) {
    check(got == wanted, what, got, wanted);
}
#define CHECK_EQ(what, got, wanted) check_eq(what, (long long)(got), (long long)(wanted))

/* -- threads and atomics ------------------------------------------------------------- */

typedef struct {
    int counter;          /* fetch_add by every thread */
    int remaining;        /* sub_fetch by every thread: the last one sees 0 */
    int last_seen;        /* how many threads saw sub_fetch reach 0 */
    int ids[THREADS];
} Shared;

typedef struct {
    Shared* shared;
    int id;
} Worker;

static void* add_many(void* arg) {
    Worker* w = (Worker*)arg;
    int i;
    for (i = 0; i < ADDS; i++)
        victorus_atomic_fetch_add_int(&w->shared->counter, 1, VICTORUS_SEQ_CST);
    victorus_atomic_store_int(&w->shared->ids[w->id], w->id + 1, VICTORUS_RELAXED);
    if (victorus_atomic_sub_fetch_int(&w->shared->remaining, 1, VICTORUS_SEQ_CST) == 0)
        victorus_atomic_fetch_add_int(&w->shared->last_seen, 1, VICTORUS_SEQ_CST);
    return w;            /* joined back as the thread's result */
}

static void check_threads_and_atomics(void) {
    Shared shared = {0, THREADS, 0, {0}};
    Worker workers[THREADS];
    victorus_thread_t handles[THREADS];
    int i;
    for (i = 0; i < THREADS; i++) {
        workers[i].shared = &shared;
        workers[i].id = i;
        CHECK_EQ("thread_create", victorus_thread_create(&handles[i], NULL, add_many, &workers[i]), 0);
    }
    for (i = 0; i < THREADS; i++) {
        void* result = NULL;
        CHECK_EQ("thread_join", victorus_thread_join(handles[i], &result), 0);
        check(result == &workers[i], "thread_join returns the thread's result", 0, 0);
    }
    CHECK_EQ("fetch_add from 8 threads", victorus_atomic_load_int(&shared.counter, VICTORUS_SEQ_CST),
             THREADS * ADDS);
    CHECK_EQ("sub_fetch reaches 0 once", shared.last_seen, 1);
    CHECK_EQ("remaining", victorus_atomic_load_int(&shared.remaining, VICTORUS_RELAXED), 0);
    for (i = 0; i < THREADS; i++)
        CHECK_EQ("relaxed store from a thread", shared.ids[i], i + 1);
}

static void check_atomic_values(void) {
    int x = 5;
    uint64_t big = 0;
    CHECK_EQ("fetch_add returns the old value", victorus_atomic_fetch_add_int(&x, 3, VICTORUS_SEQ_CST), 5);
    CHECK_EQ("fetch_add adds", x, 8);
    CHECK_EQ("fetch_add of a negative", victorus_atomic_fetch_add_int(&x, -10, VICTORUS_SEQ_CST), 8);
    CHECK_EQ("sub_fetch returns the new value", victorus_atomic_sub_fetch_int(&x, 1, VICTORUS_SEQ_CST), -3);
    victorus_atomic_store_int(&x, -2147483647 - 1, VICTORUS_SEQ_CST);
    CHECK_EQ("store of INT_MIN", victorus_atomic_load_int(&x, VICTORUS_RELAXED), -2147483647 - 1);
    victorus_atomic_store_int(&x, 2147483647, VICTORUS_RELAXED);
    CHECK_EQ("store of INT_MAX", victorus_atomic_load_int(&x, VICTORUS_SEQ_CST), 2147483647);
    victorus_atomic_store_u64(&big, ~(uint64_t)0, VICTORUS_RELAXED);
    check(victorus_atomic_load_u64(&big, VICTORUS_RELAXED) == ~(uint64_t)0, "u64 all ones", 0, 0);
    victorus_atomic_store_u64(&big, (uint64_t)1 << 63 | 1, VICTORUS_SEQ_CST);
    check(victorus_atomic_load_u64(&big, VICTORUS_SEQ_CST) == ((uint64_t)1 << 63 | 1), "u64 top and bottom",
          0, 0);
}

/* -- mutex and condition variable ---------------------------------------------------- */

typedef struct {
    victorus_mutex_t lock;
    victorus_cond_t cv;
    int turn;             /* odd: the worker's, even: the main thread's */
    int stop;
} Handshake;

static void* answer(void* arg) {
    Handshake* h = (Handshake*)arg;
    victorus_mutex_lock(&h->lock);
    while (!h->stop) {
        if (h->turn % 2 == 1) {
            h->turn++;
            victorus_cond_signal(&h->cv);
        }
        victorus_cond_wait(&h->cv, &h->lock);
    }
    victorus_mutex_unlock(&h->lock);
    return NULL;
}

static void check_handshake(void) {
    Handshake h;
    victorus_thread_t worker = 0;                    /* (set by thread_create) */
    int round;
    h.turn = 0;
    h.stop = 0;
    CHECK_EQ("mutex_init", victorus_mutex_init(&h.lock, NULL), 0);
    CHECK_EQ("cond_init", victorus_cond_init(&h.cv, NULL), 0);
    CHECK_EQ("thread_create", victorus_thread_create(&worker, NULL, answer, &h), 0);
    for (round = 0; round < ROUNDS; round++) {
        victorus_mutex_lock(&h.lock);
        h.turn++;                                     /* the worker's turn */
        if (round % 2)
            victorus_cond_signal(&h.cv);
        else
            victorus_cond_broadcast(&h.cv);
        while (h.turn % 2 == 1)
            victorus_cond_wait(&h.cv, &h.lock);
        victorus_mutex_unlock(&h.lock);
    }
    victorus_mutex_lock(&h.lock);
    h.stop = 1;
    victorus_cond_broadcast(&h.cv);
    victorus_mutex_unlock(&h.lock);
    CHECK_EQ("thread_join", victorus_thread_join(worker, NULL), 0);
    CHECK_EQ("handshake rounds", h.turn, 2 * ROUNDS);
    CHECK_EQ("cond_destroy", victorus_cond_destroy(&h.cv), 0);
    CHECK_EQ("mutex_destroy", victorus_mutex_destroy(&h.lock), 0);
}

/* -- a timed wait -------------------------------------------------------------------- */

static void* wake(void* arg) {
    Handshake* h = (Handshake*)arg;
    victorus_mutex_lock(&h->lock);
    h->turn = 1;
    victorus_cond_signal(&h->cv);
    victorus_mutex_unlock(&h->lock);
    return NULL;
}

/* Unwoken, cond_timedwait_ms returns ETIMEDOUT after about its time; woken, 0. */
static void check_timed_wait(void) {
    Handshake h;
    victorus_thread_t worker = 0;                    /* (set by thread_create) */
    double start, waited;
    int result = 0;
    h.turn = 0;
    CHECK_EQ("mutex_init", victorus_mutex_init(&h.lock, NULL), 0);
    CHECK_EQ("cond_init", victorus_cond_init(&h.cv, NULL), 0);
    victorus_mutex_lock(&h.lock);
    start = victorus_now_seconds();
    while (result == 0 && victorus_now_seconds() - start < 0.03)   /* spurious wake-ups */
        result = victorus_cond_timedwait_ms(&h.cv, &h.lock, 30);
    waited = victorus_now_seconds() - start;
    CHECK_EQ("cond_timedwait_ms unwoken", result, ETIMEDOUT);
    check(waited > 0.02 && waited < 5.0, "cond_timedwait_ms waits about its time (ms)",
          (long long)(waited * 1000), 30);
    /* the worker needs the lock, so it wakes this thread once it waits */
    CHECK_EQ("thread_create", victorus_thread_create(&worker, NULL, wake, &h), 0);
    while (h.turn == 0)
        result = victorus_cond_timedwait_ms(&h.cv, &h.lock, 60000);
    victorus_mutex_unlock(&h.lock);
    CHECK_EQ("cond_timedwait_ms woken", result, 0);
    CHECK_EQ("thread_join", victorus_thread_join(worker, NULL), 0);
    CHECK_EQ("cond_destroy", victorus_cond_destroy(&h.cv), 0);
    CHECK_EQ("mutex_destroy", victorus_mutex_destroy(&h.lock), 0);
}

/* -- clock --------------------------------------------------------------------------- */

static void check_clock(void) {
    double first = victorus_now_seconds(), previous = first, now, start, elapsed;
    time_t second;
    long reads = 0;
    do {                                              /* never backwards; it advances */
        now = victorus_now_seconds();
        check(now >= previous, "now_seconds never goes backwards", reads, 0);
        previous = now;
        reads++;
    } while (now == first);
    /* Seconds, not ticks: between two changes of time() about one second passes. */
    second = time(NULL);
    while (time(NULL) == second) {}
    second = time(NULL);
    start = victorus_now_seconds();
    while (time(NULL) == second) {}
    elapsed = victorus_now_seconds() - start;
    check(elapsed > 0.5 && elapsed < 1.5, "now_seconds counts seconds (ms over one second)",
          (long long)(elapsed * 1000), 1000);
}

/* -- bit counts ---------------------------------------------------------------------- */

static int naive_popcount(uint64_t x) {
    int n = 0;
    for (; x; x >>= 1)
        n += (int)(x & 1);
    return n;
}

static int naive_lowest_bit(uint64_t x) {
    int i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
}

static void check_bits(void) {
    uint64_t state = 0x9E3779B97F4A7C15u, x;
    int i;
    CHECK_EQ("popcount(0)", victorus_popcount64(0), 0);
    CHECK_EQ("popcount(1)", victorus_popcount64(1), 1);
    CHECK_EQ("popcount(all ones)", victorus_popcount64(~0ull), 64);
    CHECK_EQ("popcount(top bit)", victorus_popcount64(1ull << 63), 1);
    CHECK_EQ("popcount(0x5555...)", victorus_popcount64(0x5555555555555555ull), 32);
    CHECK_EQ("popcount(top | bottom)", victorus_popcount64(1ull << 63 | 1), 2);
    CHECK_EQ("lowest_bit(1)", victorus_lowest_bit(1), 0);
    CHECK_EQ("lowest_bit(top bit)", victorus_lowest_bit(1ull << 63), 63);
    CHECK_EQ("lowest_bit(all ones)", victorus_lowest_bit(~0ull), 0);
    CHECK_EQ("lowest_bit(bit 32)", victorus_lowest_bit(1ull << 32), 32);
    CHECK_EQ("lowest_bit(top two)", victorus_lowest_bit(3ull << 62), 62);
    for (i = 0; i < 64; i++) {
        CHECK_EQ("lowest_bit(1 << i)", victorus_lowest_bit(1ull << i), i);
        CHECK_EQ("popcount(low i bits)", victorus_popcount64((1ull << i) - 1), i);
        CHECK_EQ("lowest_bit(all ones << i)", victorus_lowest_bit(~0ull << i), i);
    }
    for (i = 0; i < 1000; i++) {                      /* splitmix64 values */
        state += 0x9E3779B97F4A7C15u;
        x = state;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
        x ^= x >> 31;
        CHECK_EQ("popcount(random)", victorus_popcount64(x), naive_popcount(x));
        if (x)
            CHECK_EQ("lowest_bit(random)", victorus_lowest_bit(x), naive_lowest_bit(x));
    }
}

/* -- placement ---------------------------------------------------------------------- */

/* In a thread of its own (its CPUs change, the main thread's do not). */
static void* placement_thread(void* arg) {
    victorus_placement_t p, crowded;
    int cpu = victorus_current_cpu();
    (void)arg;
#if defined(VICTORUS_PLACEMENT)
    {
        cpu_set_t now;
        int allowed;
        check(cpu >= 0, "current_cpu is a CPU", cpu, 0);
        victorus_placement_init(&p, 2);
        allowed = CPU_COUNT(&p.allowed);
        CHECK_EQ("placement_init: nothing avoided yet", p.avoided, -1);
        victorus_placement_avoid(&p, -1);
        CHECK_EQ("avoid(-1) keeps every CPU", p.avoided, -1);
        if (allowed >= 2) {
            victorus_placement_avoid(&p, cpu);
            CHECK_EQ("avoid(cpu): that CPU avoided", p.avoided, cpu);
            CHECK_EQ("avoid: the thread's affinity read back", pthread_getaffinity_np(
                pthread_self(), sizeof(now), &now), 0);
            CHECK_EQ("avoid: the caller's CPU is left out", CPU_ISSET(cpu, &now), 0);
            CHECK_EQ("avoid: every other CPU is kept", CPU_COUNT(&now), allowed - 1);
            check(victorus_current_cpu() != cpu, "avoid: the thread has moved off",
                  victorus_current_cpu(), cpu);
            victorus_placement_avoid(&p, cpu);           /* the same CPU again: no change */
            CHECK_EQ("avoid(the same cpu) keeps it", p.avoided, cpu);
            victorus_placement_restore(&p);
            CHECK_EQ("restore: nothing avoided", p.avoided, -1);
            pthread_getaffinity_np(pthread_self(), sizeof(now), &now);
            CHECK_EQ("restore: every CPU it came with", CPU_EQUAL(&now, &p.allowed), 1);
            /* Someone else sets its CPUs (the program, taskset): that setting is kept. */
            victorus_placement_avoid(&p, cpu);
            CPU_ZERO(&now);
            CPU_SET(cpu, &now);
            CHECK_EQ("a CPU set from outside", pthread_setaffinity_np(
                pthread_self(), sizeof(now), &now), 0);
            victorus_placement_restore(&p);
            pthread_getaffinity_np(pthread_self(), sizeof(now), &now);
            CHECK_EQ("restore keeps a setting made from outside",
                     CPU_COUNT(&now) == 1 && CPU_ISSET(cpu, &now), 1);
            CHECK_EQ("that setting is what it may use", CPU_EQUAL(&now, &p.allowed), 1);
            victorus_placement_avoid(&p, cpu);           /* one CPU for two threads: stay */
            CHECK_EQ("avoid within an outside setting too small for the pool", p.avoided, -1);
        }
        victorus_placement_init(&crowded, 1);            /* a pool of one: nobody beside */
        victorus_placement_avoid(&crowded, victorus_current_cpu());
        CHECK_EQ("a pool of one thread is left where it is", crowded.avoided, -1);
        victorus_placement_init(&crowded, allowed + 1);  /* more threads than CPUs */
        victorus_placement_avoid(&crowded, victorus_current_cpu());
        CHECK_EQ("a pool with more threads than CPUs is left where it is", crowded.avoided, -1);
    }
#else
    CHECK_EQ("current_cpu is unknown off Linux", cpu, -1);
    victorus_placement_init(&p, 2);
    victorus_placement_avoid(&p, 0);
    CHECK_EQ("avoid does nothing off Linux", p.avoided, -1);
    victorus_placement_init(&crowded, 3);
    CHECK_EQ("placement_init off Linux", crowded.avoided, -1);
#endif
    return NULL;
}

static void check_placement(void) {
    victorus_thread_t thread;
    CHECK_EQ("placement thread started",
             victorus_thread_create(&thread, NULL, placement_thread, NULL), 0);
    CHECK_EQ("placement thread joined", victorus_thread_join(thread, NULL), 0);
}

int main(void) {
    check_atomic_values();
    check_threads_and_atomics();
    check_handshake();
    check_timed_wait();
    check_bits();
    check_clock();
    check_placement();
#if defined(_WIN32)
    printf("portable_check: Win32 path, %d checks passed\n", checks);
#else
    printf("portable_check: POSIX path, %d checks passed\n", checks);
#endif
    return 0;
}
