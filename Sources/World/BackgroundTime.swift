// The app's background time as the operating system tells a process that reads it (layer 3):
// `UIApplication.backgroundTimeRemaining`, exact in virtual time (R-F1).
import Simulation

/// What the operating system last told the app process of its background time (R-F1), sent
/// only to an app that reads it (`AppRequest.watchBackgroundTime`, LifelineKit's
/// `UIApplication`), so no other run carries the message.
///
/// The figure is the operating system's own clock (`OperatingSystem`'s R-F1 rule), never a
/// constant: one app-wide figure, unlimited while the app is in the foreground or kept running
/// otherwise (the location daemon, a test host), and a fixed end once the app holds a task on
/// borrowed time.
package enum BackgroundTimeReport: Sendable, Equatable, CustomStringConvertible {
    /// The app is not on borrowed time: in the foreground, or kept running in the background by
    /// the location daemon or a test host. `backgroundTimeRemaining` reads
    /// `greatestFiniteMagnitude`.
    case unlimited
    /// On borrowed time in the background with no clock running: a task begun now gets this
    /// long, the figure the clock will start from (`backgroundTaskBudget`, cut short as the
    /// early-expiry chance decides).
    case startsWithTask(VirtualDuration)
    /// The clock runs: the app's background time ends at this instant.
    case endsAt(Instant)

    /// The time left at `now`: nil for unlimited, never negative.
    package func remaining(at now: Instant) -> VirtualDuration? {
        switch self {
        case .unlimited: nil
        case .startsWithTask(let lifetime): lifetime
        case .endsAt(let end): end < now ? .zero : end - now
        }
    }

    package var description: String {
        switch self {
        case .unlimited: "unlimited"
        case .startsWithTask(let lifetime):
            "\(PlainText.fixed(lifetime.seconds, digits: 3))s once a task begins"
        case .endsAt(let end): "ends at \(end)"
        }
    }
}
