// Foundation's `Timer`, on the simulated process's main run loop in virtual time.
import Foundation
import VirtualConcurrency

/// `Timer` as Foundation shapes it, firing in virtual time on the simulated process's main run
/// loop. Name it with `import class LifelineKit.Timer` (it takes precedence over Foundation's).
///
/// A timer scheduled on the main run loop (`scheduledTimer`, or `RunLoop.main.add`) fires at
/// its fire date as the process's main-thread work, ordered with the process's other work of
/// that instant by the run's ordering strategy. Like every run-loop timer on iOS it does not
/// fire while the process is suspended: one whose fire date passed fires when the process runs
/// again, once, and a repeating timer then skips the fires it missed (Foundation's documented
/// behaviour). It dies with its process. `tolerance` is kept and not applied: a timer fires at
/// its fire date, never later (iOS may fire up to `tolerance` late; the simulation takes the
/// earliest moment). Outside a simulated process the timer is Foundation's, on the real run
/// loop.
///
/// Not provided: `scheduledTimer(timeInterval:target:selector:userInfo:repeats:)`, which needs
/// the Objective-C runtime (absent on Linux); use the block form.
public final class Timer: @unchecked Sendable {
    /// The repeat interval (0 for a one-shot timer, as Foundation reports it).
    public let timeInterval: TimeInterval
    /// Kept and not applied: the simulated timer fires at its fire date.
    public var tolerance: TimeInterval = 0
    public let userInfo: Any?
    /// False once invalidated, or once a one-shot timer has fired.
    public private(set) var isValid = true
    /// When the timer next fires. Setting it moves a scheduled timer.
    public var fireDate: Date {
        get { nextFire }
        set {
            nextFire = newValue
            if let process { schedule(on: process) }
        }
    }
    private var nextFire: Date

    private let repeats: Bool
    private let block: (Timer) -> Void
    /// The process whose main run loop the timer is on, once added.
    private weak var process: VirtualProcess?
    /// The process that made the timer (nil outside a simulation).
    private weak var maker: VirtualProcess?
    private let madeInProcess: Bool
    /// Each scheduling's number: a queued fire of an earlier one does nothing.
    private var scheduling = 0
    /// Foundation's timer, for a timer made outside every simulated process.
    private var real: Foundation.Timer?

    /// `init(timeInterval:repeats:block:)`: not yet on a run loop (`RunLoop.add`).
    public convenience init(
        timeInterval interval: TimeInterval, repeats: Bool,
        block: @escaping @Sendable (Timer) -> Void
    ) {
        self.init(
            fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: repeats,
            userInfo: nil, block: block)
    }

    /// `init(fire:interval:repeats:block:)`.
    public convenience init(
        fire date: Date, interval: TimeInterval, repeats: Bool,
        block: @escaping @Sendable (Timer) -> Void
    ) {
        self.init(fire: date, interval: interval, repeats: repeats, userInfo: nil, block: block)
    }

    private init(
        fire date: Date, interval: TimeInterval, repeats: Bool, userInfo: Any?,
        block: @escaping (Timer) -> Void
    ) {
        nextFire = date
        // Foundation: a repeating timer's interval of 0 or less is 0.1 ms.
        timeInterval = repeats ? max(interval, 0.000_1) : 0
        self.repeats = repeats
        self.userInfo = userInfo
        self.block = block
        maker = ProcessWork.current
        madeInProcess = maker != nil
    }

    /// `scheduledTimer(withTimeInterval:repeats:block:)`: a timer on the current run loop
    /// (the main one, in the app's code on the main thread).
    @discardableResult
    public class func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool,
        block: @escaping @Sendable (Timer) -> Void
    ) -> Timer {
        let timer = Timer(timeInterval: interval, repeats: repeats, block: block)
        RunLoop.current.add(timer, forMode: .default)
        return timer
    }

    /// Fires the timer now: its block runs; a one-shot timer is then invalidated, a repeating
    /// one keeps its schedule.
    public func fire() {
        guard isValid else { return }
        if let real { return real.fire() }
        guard refusesNoProcess() else { return }
        block(self)
        if !repeats { invalidate() }
    }

    /// Stops the timer: it never fires again, and its run loop lets it go.
    public func invalidate() {
        isValid = false
        scheduling += 1
        process = nil
        real?.invalidate()
    }

    // MARK: - The run loop's side

    /// Added to the main run loop of the calling process.
    func addToMainRunLoop() {
        guard isValid else { return }
        guard let current = ProcessWork.current else { return addToRealRunLoop() }
        guard refusesNoProcess() else { return }
        schedule(on: current)
    }

    /// True when the timer may run in the calling process: a timer made in a process that has
    /// ended never runs in another (reported, and the timer invalidated).
    private func refusesNoProcess() -> Bool {
        guard madeInProcess else { return true }
        if let maker, !maker.hasEnded { return true }
        ProcessWork.refuseEnded("a Timer")
        isValid = false
        return false
    }

    private func schedule(on process: VirtualProcess) {
        self.process = process
        scheduling += 1
        let number = scheduling
        ProcessWork.enqueue(
            { [self] in fireFromRunLoop(number) }, on: process, lane: Lane.main,
            after: ProcessWork.nanoseconds(until: nextFire))
    }

    private func fireFromRunLoop(_ number: Int) {
        guard isValid, number == scheduling, let process else { return }
        block(self)
        guard isValid, number == scheduling else { return }
        guard repeats else { return invalidate() }
        // The next fire after now, skipping those missed (Foundation's rule).
        let now = Date()
        var next = nextFire.addingTimeInterval(timeInterval)
        if next <= now {
            // Whole intervals missed, by truncation (no libm call).
            let missed = Double(Int64(now.timeIntervalSince(next) / timeInterval)) + 1
            next = next.addingTimeInterval(missed * timeInterval)
        }
        nextFire = next
        schedule(on: process)
    }

    private func addToRealRunLoop() {
        let timer = Foundation.Timer(
            fire: nextFire, interval: repeats ? timeInterval : 0, repeats: repeats
        ) { [weak self] _ in
            guard let self else { return }
            block(self)
            if !repeats { isValid = false }
        }
        timer.tolerance = tolerance
        real = timer
        Foundation.RunLoop.current.add(timer, forMode: .default)
    }
}
