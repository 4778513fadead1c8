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
/// Moves this thread's virtual clocks on by `nanoseconds` (until the scope that set them ends):
/// a refused sleep returns with its time passed, so a loop that sleeps until a date ends.
void lifeline_vc_clock_advance(int64_t nanoseconds);
/// This thread's virtual reading of `clock` (CLOCK_REALTIME, CLOCK_BOOTTIME, else monotonic),
/// or -1 when its clocks are real.
int64_t lifeline_vc_clock_reading(int clock);
/// 1 while this thread's clocks read virtual time.
int lifeline_vc_clock_is_virtual(void);
/// Reads on this thread that the virtual clock answered (for tests).
int64_t lifeline_vc_clock_virtual_reads(void);
/// The real clock, whatever this thread's state (the C library's `clock_gettime`).
int lifeline_vc_real_clock_gettime(int clock, int64_t *seconds, int64_t *nanoseconds);

/// Reports that the app's code, running in a simulated process on this thread, made `call`,
/// which runs outside the simulation; `supported_form` names what to write instead. The case
/// then ends in the `escaped-simulation` verdict (VirtualConcurrency's `SimulationEscapes`).
/// Both strings are copied. Callable from any C or Swift code of the program.
void lifeline_vc_report_escape(const char *call, const char *supported_form);
/// The thread's collector of escapes (an unretained object pointer), or NULL.
void *lifeline_vc_escape_sink(void);
void lifeline_vc_set_escape_sink(void *sink);

// The simulated device's files (VirtualFiles.c).
#include "VirtualFiles.h"
#include "HashTableOrder.h"

#endif
