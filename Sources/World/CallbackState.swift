// What passes between the app process and `LocationServices` around one engine callback
// (layer 3): the facts set before it, and what the engine asked for during it.
import Simulation

/// The facts an engine reads from `LocationServices` that the app process sets before each
/// callback. Only plain values: reading and setting them needs no dynamic exclusivity check.
struct CallbackMoment {
    var authorizationStatus = Authorization.notDetermined
    var accuracyAuthorization = AccuracyAuthorization.full
    var isLowPowerModeEnabled = false
    var isBackgroundRefreshEnabled = true
    /// Location Services on for the whole phone (R-L40).
    var locationServicesEnabled = true
    /// The app's background time as the operating system last told it (R-F1).
    var backgroundTime = BackgroundTimeReport.unlimited
    var bootTime = BootTime(sinceStart: .zero)
    var uptime = VirtualDuration.zero
    var now = Instant.start
}

/// What an engine asked of `LocationServices` in one callback, each in the order asked; the app
/// process takes it all at once when the callback returns (`LocationServices.takeRequests`).
struct CallbackRequests {
    /// Requests for the location daemon and the operating system.
    var requests: [AppRequest] = []
    /// Calls to APIs the modelled iOS version lacks.
    var unavailableCalls: [CoreLocationAPI] = []
    /// Timers scheduled and invalidated.
    var timerRequests: [TimerRequest] = []
    /// Network path watchers made (R-N47), to be told whether the network is up.
    var newPathWatchers: [ObjectID] = []
}

/// A timer request of one callback, applied by the app process when the callback returns.
enum TimerRequest: Sendable, Equatable {
    case schedule(ObjectID, after: VirtualDuration)
    case invalidate(ObjectID)
}
