// The process's clock functions, interposed: a Swift program links this file into its
// executable, so the dynamic linker binds every library's `clock_gettime`, `gettimeofday` and
// `time` (Foundation's `Date()`, the Swift runtime's `ContinuousClock`, `ProcessInfo`) to these
// definitions. On a thread whose virtual clock is set they answer virtual time; everywhere else
// they call the C library's own, found once with `dlsym(RTLD_NEXT, …)`. This is libfaketime's
// technique (LD_PRELOAD) with the definitions in the executable instead of a preloaded
// library, and per thread instead of per process, as madsim scopes its clock to a simulation.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "CVirtualClock.h"

// The thread's state in one initial-exec TLS block: this file is linked into the executable,
// so each access is one %fs-relative load, with no call to __tls_get_addr (the default model
// for position-independent code).
static __thread lifeline_vc_state state __attribute__((tls_model("initial-exec")));
static __thread int64_t virtual_reads __attribute__((tls_model("initial-exec")));

void *lifeline_vc_current_process(void) { return state.process; }
void lifeline_vc_set_current_process(void *process) { state.process = process; }

void lifeline_vc_clock_set(int64_t realtime_ns, int64_t monotonic_ns, int64_t boottime_ns) {
    state.realtime = realtime_ns;
    state.monotonic = monotonic_ns;
    state.boottime = boottime_ns;
    state.clock_virtual = 1;
}
void lifeline_vc_clock_clear(void) { state.clock_virtual = 0; }
void lifeline_vc_clock_advance(int64_t nanoseconds) {
    if (!state.clock_virtual || nanoseconds <= 0) return;
    state.realtime += nanoseconds;
    state.monotonic += nanoseconds;
    state.boottime += nanoseconds;
}
int64_t lifeline_vc_clock_reading(int clock) {
    if (!state.clock_virtual) return -1;
    return clock == CLOCK_REALTIME ? state.realtime
        : clock == CLOCK_BOOTTIME  ? state.boottime
                                   : state.monotonic;
}
int lifeline_vc_clock_is_virtual(void) { return state.clock_virtual; }
int64_t lifeline_vc_clock_virtual_reads(void) { return virtual_reads; }

void lifeline_vc_enter(
    void *process, int64_t realtime_ns, int64_t monotonic_ns, int64_t boottime_ns,
    lifeline_vc_state *saved) {
    *saved = state;
    state.process = process;
    state.clock_virtual = 1;
    state.realtime = realtime_ns;
    state.monotonic = monotonic_ns;
    state.boottime = boottime_ns;
}

void lifeline_vc_restore(const lifeline_vc_state *saved) { state = *saved; }

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
static clock_gettime_fn real_clock_gettime_fn;

static clock_gettime_fn real_clock_gettime(void) {
    clock_gettime_fn found = __atomic_load_n(&real_clock_gettime_fn, __ATOMIC_ACQUIRE);
    if (found == NULL) {
        found = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
        __atomic_store_n(&real_clock_gettime_fn, found, __ATOMIC_RELEASE);
    }
    return found;
}

int lifeline_vc_real_clock_gettime(int clock, int64_t *seconds, int64_t *nanoseconds) {
    struct timespec time;
    int result = real_clock_gettime()((clockid_t)clock, &time);
    *seconds = time.tv_sec;
    *nanoseconds = time.tv_nsec;
    return result;
}

/// The virtual reading of `clock` in nanoseconds, or -1 when the thread's clock is real or the
/// clock is not one of the wall or monotonic clocks (CPU-time clocks stay real).
static int64_t virtual_reading(clockid_t clock) {
    if (!state.clock_virtual) return -1;
    switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
#ifdef CLOCK_TAI
    case CLOCK_TAI:
#endif
        return state.realtime;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
        return state.monotonic;
    case CLOCK_BOOTTIME:
        return state.boottime;
    default:
        return -1;
    }
}

int clock_gettime(clockid_t clock, struct timespec *time) {
    int64_t reading = virtual_reading(clock);
    if (reading < 0) return real_clock_gettime()(clock, time);
    virtual_reads += 1;
    time->tv_sec = (time_t)(reading / 1000000000);
    time->tv_nsec = (long)(reading % 1000000000);
    return 0;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
    struct timespec now;
    int result = clock_gettime(CLOCK_REALTIME, &now);
    // glibc declares `value` nonnull.
    value->tv_sec = now.tv_sec;
    value->tv_usec = (suseconds_t)(now.tv_nsec / 1000);
    (void)zone;
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (out != NULL) *out = now.tv_sec;
    return now.tv_sec;
}

/// Weak: defined by the VirtualConcurrency module (Swift) when it is linked in.
extern void lifeline_virtual_concurrency_install_at_load(void) __attribute__((weak));

/// Installs the virtual executors when the program loads, before any Swift task exists.
__attribute__((constructor)) static void install_at_load(void) {
    if (lifeline_virtual_concurrency_install_at_load != NULL) {
        lifeline_virtual_concurrency_install_at_load();
    }
}
