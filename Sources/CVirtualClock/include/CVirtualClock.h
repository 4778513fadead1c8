// The C half of VirtualConcurrency: the thread's virtual clock, read by the process's
// `clock_gettime`, `gettimeofday` and `time` (defined in VirtualClock.c), and the thread's
// current virtual process, read by the virtual executors. Not for direct use: see the
// VirtualConcurrency module.
#ifndef LIFELINE_CVIRTUALCLOCK_H
#define LIFELINE_CVIRTUALCLOCK_H
#include <stdint.h>

/// A thread's virtual state, saved by `lifeline_vc_enter` and put back by `lifeline_vc_restore`.
typedef struct {
    void *process;
    int clock_virtual;
    int64_t realtime, monotonic, boottime;
} lifeline_vc_state;

/// Makes `process` the thread's current process and its clocks read the given virtual time
/// (as `lifeline_vc_clock_set`), saving the previous state in `saved`: one call per scope.
void lifeline_vc_enter(
    void *process, int64_t realtime_ns, int64_t monotonic_ns, int64_t boottime_ns,
    lifeline_vc_state *saved);
/// Puts back the state `lifeline_vc_enter` saved.
void lifeline_vc_restore(const lifeline_vc_state *saved);

/// The virtual process whose jobs this thread collects (an unretained object pointer), or NULL.
void *lifeline_vc_current_process(void);
void lifeline_vc_set_current_process(void *process);

/// From now on this thread's clocks read virtual time: CLOCK_REALTIME (and _COARSE)
/// `realtime_ns` since 1970, CLOCK_MONOTONIC (and _RAW, _COARSE) `monotonic_ns`, and
/// CLOCK_BOOTTIME `boottime_ns`. Other threads are untouched.
void lifeline_vc_clock_set(int64_t realtime_ns, int64_t monotonic_ns, int64_t boottime_ns);
/// This thread's clocks read real time again.
void lifeline_vc_clock_clear(void);
/// 1 while this thread's clocks read virtual time.
int lifeline_vc_clock_is_virtual(void);
/// Reads on this thread that the virtual clock answered (for tests).
int64_t lifeline_vc_clock_virtual_reads(void);
/// The real clock, whatever this thread's state (the C library's `clock_gettime`).
int lifeline_vc_real_clock_gettime(int clock, int64_t *seconds, int64_t *nanoseconds);

// The simulated device's files (VirtualFiles.c).
#include "VirtualFiles.h"

#endif
