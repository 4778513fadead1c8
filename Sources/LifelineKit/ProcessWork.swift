// The app's Dispatch, run-loop and operation-queue work as work of its simulated process: the
// shared helpers of LifelineKit's `Timer`, `RunLoop`, `DispatchQueue` and their companions.
import Foundation
import VirtualConcurrency

/// Where LifelineKit's queues and timers put the app's blocks: the simulated process running
/// on the calling thread (`VirtualProcess.current`), whose work the world runs at its instants,
/// ordered with the process's Swift concurrency by the run's ordering strategy.
enum ProcessWork {
    /// The simulated process of the calling thread, nil outside every simulation.
    static var current: VirtualProcess? { VirtualProcess.current }

    /// `seconds` as whole nanoseconds (rounded to the nearest; negative as 0), in plain
    /// arithmetic (no libm call).
    static func nanoseconds(_ seconds: TimeInterval) -> Int64 {
        guard seconds > 0 else { return 0 }
        guard seconds < 9_000_000_000 else { return Int64.max / 2 }
        return Int64(seconds * 1_000_000_000 + 0.5)
    }

    /// Nanoseconds from the process's clock to `date` (`Date()` reads the virtual clock in a
    /// simulated process), 0 for a date already passed.
    static func nanoseconds(until date: Date) -> Int64 {
        nanoseconds(date.timeIntervalSince(Date()))
    }

    /// Queues `block` on `process`, on `lane`, after `delay` nanoseconds (nil: now).
    static func enqueue(
        _ block: @escaping () -> Void, on process: VirtualProcess, lane: Int, after delay: Int64?
    ) {
        process.accept(block: block, lane: lane, after: delay)
    }

    /// Reports the app's use of `object`, made in a process that has ended, from another
    /// process: the work is dropped (a process's work never runs in another).
    static func refuseEnded(_ what: String) {
        SimulationEscapes.report(
            call: "\(what) made in a process that has ended, used in another process",
            supportedForm:
                "make it again in each process (at launch, or in ProcessLocal state): a "
                + "process's work never runs after it ends")
    }

    /// Reports a wait on the simulated thread that only time passing could end: the world
    /// cannot move on in the middle of the app's code.
    static func refuseBlockingWait(_ call: String, instead: String) {
        SimulationEscapes.report(
            call: "\(call) waiting past the current instant (a blocking wait on a simulated "
                + "thread)",
            supportedForm: instead)
    }
}
