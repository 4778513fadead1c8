// Work that would run outside the simulation, caught: a program that links this file gets these
// definitions of the C library's and libdispatch's entry points in its executable, so the
// dynamic linker binds the app's calls to them (as it binds `clock_gettime`, VirtualClock.c).
// On a thread that is not running a simulated process each one calls the real function. On a
// simulation thread, a call the app's code made (the nearest caller in the executable, not in
// Foundation, Dispatch or the Swift runtime alone) is reported with
// `lifeline_vc_report_escape` and refused: the block is dropped, the thread not started, the
// sleep not slept (the thread's virtual clocks move on by its length, so a loop that sleeps
// until a date ends), the socket not connected. The run then ends in the `escaped-simulation`
// verdict, naming the call and the supported form.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "CVirtualClock.h"

/// Weak: defined by the VirtualConcurrency module (Swift), which keeps the thread's escapes.
extern void lifeline_virtual_concurrency_escaped(const char *call, const char *supported_form)
    __attribute__((weak));

static __thread void *escape_sink __attribute__((tls_model("initial-exec")));
void *lifeline_vc_escape_sink(void) { return escape_sink; }
void lifeline_vc_set_escape_sink(void *sink) { escape_sink = sink; }

void lifeline_vc_report_escape(const char *call, const char *supported_form) {
    if (lifeline_virtual_concurrency_escaped != NULL) {
        lifeline_virtual_concurrency_escaped(call, supported_form);
    }
}

/// The real definition of `name`, found once.
static void *real(void **slot, const char *name) {
    void *found = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (found == NULL) {
        found = dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, found, __ATOMIC_RELEASE);
    }
    return found;
}
#define REAL(name)                                                                         \
    static void *name##_slot;                                                              \
    __typeof__(&name) real_##name = (__typeof__(&name))real(&name##_slot, #name)

/// Where a frame's code lives, by the object it was loaded from.
typedef enum { FRAME_EXECUTABLE, FRAME_FOUNDATION, FRAME_OTHER } frame_origin;

static frame_origin origin(void *address) {
    static void *executable_base;
    if (executable_base == NULL) {
        Dl_info self;
        if (dladdr((void *)&lifeline_vc_report_escape, &self) == 0) return FRAME_OTHER;
        executable_base = self.dli_fbase;
    }
    Dl_info info;
    if (dladdr(address, &info) == 0) return FRAME_OTHER;
    if (info.dli_fbase == executable_base) return FRAME_EXECUTABLE;
    if (info.dli_fname != NULL && strstr(info.dli_fname, "libFoundation") != NULL) {
        return FRAME_FOUNDATION;
    }
    return FRAME_OTHER;
}

/// Frames walked outward from the interposed call to find the app's.
enum { frame_count_max = 24 };

/// 1 when this thread runs a simulated process and the call was made by code in the
/// executable (the app's, directly or through Foundation or Dispatch); `through_foundation`
/// says whether Foundation stood in between. The Swift runtime's and Foundation's own work on
/// the thread (locale and time-zone data, the runtime's threads) has no such caller and is
/// left alone.
__attribute__((noinline)) static int is_app_call(int *through_foundation) {
    if (lifeline_vc_current_process() == NULL) return 0;
    void *frames[frame_count_max];
    int count = backtrace(frames, frame_count_max);
    *through_foundation = 0;
    // frames[0] is this function, frames[1] the interposed entry point.
    for (int index = 2; index < count; index += 1) {
        switch (origin(frames[index])) {
        case FRAME_EXECUTABLE: return 1;
        case FRAME_FOUNDATION: *through_foundation = 1; break;
        case FRAME_OTHER: break;
        }
    }
    return 0;
}

// MARK: - Threads

int pthread_create(
    pthread_t *restrict thread, const pthread_attr_t *restrict attributes,
    void *(*start)(void *), void *restrict argument) {
    REAL(pthread_create);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            through_foundation ? "Thread.start (a real thread, through Foundation)"
                               : "pthread_create (a real thread)",
            "a Task { } or a DispatchQueue of LifelineKit "
            "(import class LifelineKit.DispatchQueue)");
        return EAGAIN;
    }
    return real_pthread_create(thread, attributes, start, argument);
}

// MARK: - Sleeps

static int64_t nanoseconds_of(const struct timespec *duration) {
    if (duration == NULL) return 0;
    return (int64_t)duration->tv_sec * 1000000000 + duration->tv_nsec;
}

// A sleep of no length waits for nothing: it yields the processor. CoreFoundation's spin
// locks call `sleep(0)` while another thread holds the lock (a `CharacterSet` read under a
// `HTTPURLResponse` made in two cases at once with `--jobs 2`), so a zero-length sleep goes
// to the C library on any thread and is no escape.

static const char *const sleep_supported =
    "Task.sleep(for:), or DispatchQueue.main.asyncAfter(deadline:) or Timer of LifelineKit: "
    "a blocking sleep would need the world to move on in the middle of the app's code";

unsigned int sleep(unsigned int seconds) {
    REAL(sleep);
    int through_foundation;
    if (seconds > 0 && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape("sleep (a real sleep)", sleep_supported);
        lifeline_vc_clock_advance((int64_t)seconds * 1000000000);
        return 0;
    }
    return real_sleep(seconds);
}

int usleep(useconds_t microseconds) {
    REAL(usleep);
    int through_foundation;
    if (microseconds > 0 && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape("usleep (a real sleep)", sleep_supported);
        lifeline_vc_clock_advance((int64_t)microseconds * 1000);
        return 0;
    }
    return real_usleep(microseconds);
}

int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    REAL(nanosleep);
    int through_foundation;
    if (nanoseconds_of(duration) > 0 && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            through_foundation ? "Thread.sleep (a real sleep, through Foundation)"
                               : "nanosleep (a real sleep)",
            sleep_supported);
        if (remaining != NULL) {
            remaining->tv_sec = 0;
            remaining->tv_nsec = 0;
        }
        // Foundation's `Thread.sleep` sleeps until its date by the clock: the refused sleep
        // moves the thread's clocks on by its length, so that loop ends.
        lifeline_vc_clock_advance(nanoseconds_of(duration));
        return 0;
    }
    return real_nanosleep(duration, remaining);
}

int clock_nanosleep(
    clockid_t clock, int flags, const struct timespec *duration, struct timespec *remaining) {
    REAL(clock_nanosleep);
    int through_foundation;
    int yields = (flags & TIMER_ABSTIME) == 0 && nanoseconds_of(duration) == 0;
    if (!yields && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            through_foundation ? "Thread.sleep (a real sleep, through Foundation)"
                               : "clock_nanosleep (a real sleep)",
            sleep_supported);
        int64_t length = nanoseconds_of(duration);
        if ((flags & TIMER_ABSTIME) != 0) {
            int64_t now = lifeline_vc_clock_reading(clock);
            length = now < 0 ? 0 : length - now;
        }
        lifeline_vc_clock_advance(length);
        return 0;
    }
    return real_clock_nanosleep(clock, flags, duration, remaining);
}

// MARK: - Sockets

// <sys/socket.h> is not included: with _GNU_SOURCE it declares `connect` with a transparent
// union, which this definition need not match.
struct sockaddr;
int connect(int socket, const struct sockaddr *address, unsigned int length) {
    REAL(connect);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            through_foundation ? "a real network connection (URLSession of Foundation)"
                               : "connect (a real socket)",
            "URLSession of LifelineKit (import class LifelineKit.URLSession), whose uploads "
            "reach the simulated server");
        errno = ECONNREFUSED;
        return -1;
    }
    return real_connect(socket, address, length);
}

// MARK: - Dispatch

// libdispatch's types, opaque here (no header: the C target does not see Dispatch's).
typedef void *queue_ref;
typedef void *block_ref;
typedef uint64_t time_ref;

static const char *const queue_supported =
    "DispatchQueue of LifelineKit (import class LifelineKit.DispatchQueue), which runs its "
    "blocks on the simulated process in virtual time";

void dispatch_async(queue_ref queue, block_ref block) {
    REAL(dispatch_async);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            through_foundation ? "a block on a real Dispatch queue (OperationQueue or another "
                                 "Foundation API of the real process)"
                               : "DispatchQueue.async on a real Dispatch queue",
            queue_supported);
        return;
    }
    real_dispatch_async(queue, block);
}

void dispatch_async_f(queue_ref queue, void *context, void (*work)(void *)) {
    REAL(dispatch_async_f);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "dispatch_async_f on a real Dispatch queue", queue_supported);
        return;
    }
    real_dispatch_async_f(queue, context, work);
}

void dispatch_after(time_ref when, queue_ref queue, block_ref block) {
    REAL(dispatch_after);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "DispatchQueue.asyncAfter on a real Dispatch queue", queue_supported);
        return;
    }
    real_dispatch_after(when, queue, block);
}

void dispatch_after_f(time_ref when, queue_ref queue, void *context, void (*work)(void *)) {
    REAL(dispatch_after_f);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "dispatch_after_f on a real Dispatch queue", queue_supported);
        return;
    }
    real_dispatch_after_f(when, queue, context, work);
}

void dispatch_group_async(void *group, queue_ref queue, block_ref block) {
    REAL(dispatch_group_async);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "DispatchQueue.async(group:) on a real Dispatch queue", queue_supported);
        return;
    }
    real_dispatch_group_async(group, queue, block);
}

void dispatch_barrier_async(queue_ref queue, block_ref block) {
    REAL(dispatch_barrier_async);
    int through_foundation;
    if (is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "DispatchQueue.async(flags: .barrier) on a real Dispatch queue", queue_supported);
        return;
    }
    real_dispatch_barrier_async(queue, block);
}

static const char *const wait_supported =
    "DispatchSemaphore or DispatchGroup of LifelineKit (import class "
    "LifelineKit.DispatchSemaphore), whose waits run in virtual time, or async/await";

long dispatch_semaphore_wait(void *semaphore, time_ref timeout) {
    REAL(dispatch_semaphore_wait);
    int through_foundation;
    if (timeout != 0 && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "DispatchSemaphore.wait on a real semaphore (a real blocking wait)", wait_supported);
        return real_dispatch_semaphore_wait(semaphore, 0);
    }
    return real_dispatch_semaphore_wait(semaphore, timeout);
}

long dispatch_group_wait(void *group, time_ref timeout) {
    REAL(dispatch_group_wait);
    int through_foundation;
    if (timeout != 0 && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "DispatchGroup.wait on a real group (a real blocking wait)", wait_supported);
        return real_dispatch_group_wait(group, 0);
    }
    return real_dispatch_group_wait(group, timeout);
}

// MARK: - Foundation's run loop

int timerfd_settime(
    int descriptor, int flags, const struct itimerspec *value, struct itimerspec *old) {
    REAL(timerfd_settime);
    int through_foundation;
    // Disarming (a zero value) is harmless; arming is a timer of the real run loop.
    if (value != NULL && (value->it_value.tv_sec != 0 || value->it_value.tv_nsec != 0)
        && is_app_call(&through_foundation)) {
        lifeline_vc_report_escape(
            "a Timer of Foundation on the real run loop (it never fires in the simulation)",
            "Timer of LifelineKit (import class LifelineKit.Timer), which fires in virtual "
            "time on the simulated main run loop");
    }
    return real_timerfd_settime(descriptor, flags, value, old);
}
