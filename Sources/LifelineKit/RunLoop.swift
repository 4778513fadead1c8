// Foundation's `RunLoop`, as the simulated process's main run loop.
import Foundation
import VirtualConcurrency

/// `RunLoop` as Foundation shapes it, for the simulated process. Name it with
/// `import class LifelineKit.RunLoop`.
///
/// `RunLoop.main` is the simulated process's main run loop: the world runs it, so a `Timer`
/// added to it fires in virtual time (see `Timer`) and a block given to `perform(_:)` runs as
/// the process's main-thread work. `RunLoop.current` is the main run loop in the app's
/// main-thread code; in a block of a background queue it is that thread's own run loop, which
/// nothing runs, so a timer added there never fires (as on iOS, where a background Dispatch
/// thread runs no run loop).
///
/// Running a run loop from the app's code (`run(until:)`, `run(mode:before:)`, `run()`) would
/// need the world to move on in the middle of the app's code: with a limit date already passed
/// it returns at once (nothing more is due at this instant); with a later one it is refused
/// loudly (the case ends in `escaped-simulation`, naming `Timer`, `asyncAfter` and
/// `Task.sleep`) and returns at once.
public final class RunLoop: @unchecked Sendable {
    /// Foundation's run-loop modes (`.default`, `.common`).
    public typealias Mode = Foundation.RunLoop.Mode

    private let isMain: Bool
    private init(isMain: Bool) { self.isMain = isMain }

    /// The simulated process's main run loop.
    public static let main = RunLoop(isMain: true)
    /// The run loop of a background queue's thread: nothing runs it.
    private static let background = RunLoop(isMain: false)

    /// The run loop of the calling thread: the main one on the process's main thread (and
    /// outside every simulation, where Foundation's own run loop is used).
    public static var current: RunLoop {
        guard let process = ProcessWork.current else { return main }
        return process.currentLane == Lane.main ? main : background
    }

    /// Adds `timer` (any mode: the simulated main run loop runs in every mode).
    public func add(_ timer: Timer, forMode mode: Mode) {
        guard isMain else { return }  // never fires: nothing runs this run loop
        timer.addToMainRunLoop()
    }

    /// `perform(_:)`: `block` runs on this run loop's next turn.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        guard isMain, let process = ProcessWork.current else {
            return Foundation.RunLoop.main.perform(block)
        }
        ProcessWork.enqueue(block, on: process, lane: Lane.main, after: nil)
    }

    /// `run(until:)`: returns at once for a date already passed; a later one is refused.
    public func run(until limitDate: Date) {
        guard ProcessWork.current != nil else {
            return Foundation.RunLoop.current.run(until: limitDate)
        }
        refuseUnlessPassed(limitDate, "RunLoop.run(until:)")
    }

    /// `run(mode:before:)`: false (no input source ran) for a date already passed; a later
    /// one is refused.
    @discardableResult
    public func run(mode: Mode, before limitDate: Date) -> Bool {
        guard ProcessWork.current != nil else {
            return Foundation.RunLoop.current.run(mode: mode, before: limitDate)
        }
        refuseUnlessPassed(limitDate, "RunLoop.run(mode:before:)")
        return false
    }

    /// `run()`: runs forever on iOS; refused.
    public func run() {
        guard ProcessWork.current != nil else { return Foundation.RunLoop.current.run() }
        refuseUnlessPassed(.distantFuture, "RunLoop.run()")
    }

    private func refuseUnlessPassed(_ limitDate: Date, _ call: String) {
        guard limitDate > Date() else { return }
        ProcessWork.refuseBlockingWait(
            call,
            instead: "Timer or DispatchQueue.main.asyncAfter(deadline:) of LifelineKit, or "
                + "Task.sleep(for:): the simulated main run loop runs between the app's "
                + "callbacks")
    }
}
