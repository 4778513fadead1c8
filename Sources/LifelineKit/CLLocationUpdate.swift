// `CLLocationUpdate.liveUpdates(_:)` with Apple's shapes (layer 4): an `AsyncSequence` of
// updates over the world's live-updates stream, iterated on the virtual executors
// (docs/concurrency.md), so a `for try await` loop runs in the simulation's time.
import Foundation
import Simulation
import VirtualConcurrency
import World

/// The world's configuration, named apart from `CLLocationUpdate.LiveConfiguration`.
typealias WorldLiveConfiguration = LiveConfiguration

/// `CLLocationUpdate` (iOS 17): one element of `liveUpdates(_:)`, a location if one is
/// available now and the diagnostic flags that say why updates are paused or limited.
///
/// Mapped from the world's `LocationUpdate` (R-C1, R-C2):
/// - `location`: the world's fix, as `CLLocation`; nil when the world sent an update without
///   one (a stream suspended for a reason it flags).
/// - `stationary` (and the older `isStationary`): the update that pauses a still stream
///   (R-C2). The stream then sends nothing until the device moves, and resumes with updates
///   whose flag is false.
/// - `authorizationDenied`, `insufficientlyInUse`, `accuracyLimited`: set where the world sets
///   them (see `LocationDiagnostics`); bare live updates of a When In Use app whose grace ends
///   get no flag at all, as source A measured (R-A5).
/// - `locationUnavailable`, `serviceSessionRequired`: carried over, but the world never sets
///   them (no GNSS outage, no `NSLocationRequireExplicitServiceSession`).
/// - `authorizationDeniedGlobally`, `authorizationRestricted`, `authorizationRequestInProgress`:
///   always false. The world models neither Location Services turned off for the whole
///   device, nor a restricted (parental-control) authorization, nor tells a stream that a
///   prompt is showing.
public struct CLLocationUpdate: Sendable {
    /// `location`: the device's location, if available.
    public let location: CLLocation?
    /// `stationary` (iOS 18): the device is still and updates pause until it moves.
    public let stationary: Bool
    /// `authorizationDenied` (iOS 18): the user denied the app location access.
    public let authorizationDenied: Bool
    /// `authorizationDeniedGlobally` (iOS 18): Location Services are off for the device. Not
    /// modelled: always false.
    public let authorizationDeniedGlobally: Bool
    /// `authorizationRestricted` (iOS 18): the app's authorization is restricted. Not
    /// modelled: always false.
    public let authorizationRestricted: Bool
    /// `authorizationRequestInProgress` (iOS 18): an authorization prompt is showing. Not
    /// modelled: always false.
    public let authorizationRequestInProgress: Bool
    /// `insufficientlyInUse` (iOS 18): a When In Use app is not in use enough (in the
    /// background without a session that counts, R-C5).
    public let insufficientlyInUse: Bool
    /// `locationUnavailable` (iOS 18): no location can be determined now. Never set here.
    public let locationUnavailable: Bool
    /// `accuracyLimited` (iOS 18): reduced accuracy limits the updates (R-F10).
    public let accuracyLimited: Bool
    /// `serviceSessionRequired` (iOS 18): the app must hold a `CLServiceSession`. Never set
    /// here.
    public let serviceSessionRequired: Bool

    /// `isStationary` (iOS 17). Apple's documentation marks it deprecated, `stationary` (iOS
    /// 18) replacing it; the deprecation is declared for iOS, so it warns in an iOS build and
    /// not here, as `CLLocationManager`'s deprecations do.
    @available(iOS, deprecated: 18.0, renamed: "stationary")
    public var isStationary: Bool { stationary }

    init(_ update: LocationUpdate) {
        location = update.fix.map(CLLocation.init)
        stationary = update.diagnostics.contains(.stationary)
        authorizationDenied = update.diagnostics.contains(.authorizationDenied)
        authorizationDeniedGlobally = false
        authorizationRestricted = false
        authorizationRequestInProgress = false
        insufficientlyInUse = update.diagnostics.contains(.insufficientlyInUse)
        locationUnavailable = update.diagnostics.contains(.locationUnavailable)
        accuracyLimited = update.diagnostics.contains(.accuracyLimited)
        serviceSessionRequired = update.diagnostics.contains(.serviceSessionRequired)
    }

    /// `CLLocationUpdate.LiveConfiguration`: the kind of updates (R-C3: the old activity
    /// types). Recorded by the world; it does not change delivery yet.
    public enum LiveConfiguration: Sendable, Hashable {
        case `default`
        case automotiveNavigation
        case otherNavigation
        case fitness
        case airborne

        var world: WorldLiveConfiguration {
            switch self {
            case .default: .default
            case .automotiveNavigation: .automotiveNavigation
            case .otherNavigation: .otherNavigation
            case .fitness: .fitness
            case .airborne: .airborne
            }
        }
    }

    /// `liveUpdates(_:)`: the updates of `configuration`. Nothing starts until the sequence is
    /// iterated: making its iterator starts the world's stream (`services.startLiveUpdates`)
    /// in the calling process, and ending the iteration stops it (`stopLiveUpdates`), whether
    /// the loop breaks, the iterator is dropped or the iterating task is cancelled (the loop
    /// then ends: `next()` returns nil).
    ///
    /// The calling process is the one whose code iterates: a task made in the app's code
    /// (`Task { }`, `Task.detached { }`) belongs to the process that made it. Iterated outside
    /// a simulated process, the sequence is empty.
    public static func liveUpdates(_ configuration: LiveConfiguration = .default) -> Updates {
        Updates(configuration: configuration)
    }

    /// `CLLocationUpdate.Updates`: the asynchronous sequence `liveUpdates(_:)` returns.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = CLLocationUpdate
        public typealias Failure = any Error
        let configuration: LiveConfiguration

        public func makeAsyncIterator() -> Iterator {
            Iterator(stream: LiveStream(configuration: configuration.world))
        }

        /// `CLLocationUpdate.Updates.Iterator`.
        public struct Iterator: AsyncIteratorProtocol, Sendable {
            public typealias Element = CLLocationUpdate
            public typealias Failure = any Error
            @usableFromInline let stream: LiveStream

            public mutating func next() async throws -> CLLocationUpdate? {
                try await next(isolation: nil)
            }

            /// Takes a kept update, or waits for the next one. Inlinable, so that the loop
            /// awaits the update in its own frame: as a call, `next` cost a task-allocator
            /// frame and two executor checks (`swift_task_switch`) per update (with the
            /// stream's exclusivity checks, about 600 instructions of `session-kit`'s fuzz
            /// cases per update, callgrind). The cancellation handler is registered with the
            /// two runtime calls `withTaskCancellationHandler` makes (`TaskCancellationRecord`):
            /// that function's own frame, its operation closure's and their executor checks
            /// cost about 400 instructions an update. The continuation waits on the caller's
            /// actor (`isolation: actor`): a loop on the main actor then runs two jobs per
            /// update instead of three, about 870 instructions fewer (`session-kit-main-actor`).
            @inlinable
            public mutating func next(
                isolation actor: isolated (any Actor)? = #isolation
            ) async throws -> CLLocationUpdate? {
                if let ready = stream.ready() { return ready }
                let stream = self.stream
                // A task cancelled already runs the handler at once: the stream ends, and the
                // wait below returns nil without waiting.
                let record = stream.watchCancellation()
                defer { stream.stopWatchingCancellation(record) }
                return await withUnsafeContinuation(isolation: actor) { stream.wait($0) }
            }
        }
    }
}

/// One iteration of `liveUpdates(_:)`: the world's stream it started, the updates delivered
/// and not yet taken, and the task waiting for one. Only the simulation's thread touches it
/// (the process's callbacks and jobs), hence `@unchecked Sendable`, and its state read at
/// every update goes without run-time exclusivity checks (about 75 instructions an access).
@usableFromInline final class LiveStream: @unchecked Sendable {
    private weak var services: LocationServices?
    private(set) var id: LiveUpdatesID?
    @exclusivity(unchecked) private var buffer: [CLLocationUpdate] = []
    /// The task waiting in the iterator's `next`. An unsafe continuation: a checked one
    /// allocates a canary object per `next()` (about 300 instructions per update, callgrind;
    /// docs/studies/kit-engines.md),
    /// and each continuation here is resumed once, by the code that takes it out of `waiting`.
    @exclusivity(unchecked) private var waiting: UnsafeContinuation<CLLocationUpdate?, Never>?
    @exclusivity(unchecked) private var ended = false
    /// What the iterating task's cancellation runs (`watchCancellation`): made once and held
    /// here, because the runtime keeps the handler without retaining it while `next()` waits.
    @exclusivity(unchecked) private var onCancel: @Sendable () -> Void = {}

    init(configuration: WorldLiveConfiguration) {
        onCancel = { [unowned self] in self.cancel() }
        guard let scope = ProcessScope.current, let services = scope.services else {
            ended = true
            return
        }
        self.services = services
        let id = services.startLiveUpdates(configuration)
        self.id = id
        scope.liveStreams.add(self)
    }

    deinit { stop() }

    /// An update for this stream: handed to the waiting task, or kept for the next `next()`.
    func deliver(_ update: LocationUpdate) {
        guard !ended else { return }
        let converted = CLLocationUpdate(update)
        if let waiting {
            self.waiting = nil
            waiting.resume(returning: converted)
        } else {
            buffer.append(converted)
        }
    }

    /// What the iterator's `next` returns without waiting: the first update kept, or nil (as
    /// `.some(nil)`) once the iteration ended; nil if the task must wait.
    @usableFromInline func ready() -> CLLocationUpdate?? {
        if !buffer.isEmpty { return .some(buffer.removeFirst()) }
        return ended ? .some(nil) : nil
    }

    /// Registers the current task's cancellation handler for a `next()` about to wait: its
    /// record, for `stopWatchingCancellation`. A task cancelled already ends the stream here.
    @usableFromInline func watchCancellation() -> UnsafeRawPointer? {
        TaskCancellationRecord.add(onCancel)
    }

    /// Removes the handler `watchCancellation` registered, once the wait is over.
    @usableFromInline func stopWatchingCancellation(_ record: UnsafeRawPointer?) {
        TaskCancellationRecord.remove(record)
    }

    /// Waits for the next update with `continuation` (at once nil if the iteration ended).
    @usableFromInline func wait(_ continuation: UnsafeContinuation<CLLocationUpdate?, Never>) {
        if ended {
            continuation.resume(returning: nil)
        } else {
            waiting = continuation
        }
    }

    /// The iterating task was cancelled: the loop ends and the world's stream stops.
    func cancel() {
        buffer = []
        stop()
        if let waiting {
            self.waiting = nil
            waiting.resume(returning: nil)
        }
    }

    private func stop() {
        guard !ended else { return }
        ended = true
        if let id, let services { services.stopLiveUpdates(id) }
    }
}

/// The live-updates iterations of one simulated process (`ProcessScope.liveStreams`), held
/// weakly (an iteration ends when its iterator goes), so the process's `didReceive` can find
/// the one an update is for. Held by the scope rather than read from a `ProcessLocal` at every
/// update: the lookup cost about 580 instructions an update (docs/studies/kit-engines.md).
final class LiveStreams: @unchecked Sendable {
    /// The iterations, and beside them the ids of their world streams: finding the one an
    /// update is for compares ids and loads one weak reference (copying each `Weak` on the
    /// way cost about 300 instructions an update). Read at every update, so without run-time
    /// exclusivity checks: only the simulation's thread touches them.
    @exclusivity(unchecked) private var streams: [Weak<LiveStream>] = []
    @exclusivity(unchecked) private var ids: [LiveUpdatesID?] = []

    func add(_ stream: LiveStream) {
        var index = 0
        while index < streams.count {
            if streams[index].value == nil {
                streams.remove(at: index)
                ids.remove(at: index)
            } else {
                index += 1
            }
        }
        streams.append(Weak(stream))
        ids.append(stream.id)
    }

    /// Hands `update` to the iteration whose world stream sent it, if it still runs.
    func deliver(_ update: LocationUpdate) {
        guard let id = update.liveUpdates else { return }
        for index in ids.indices where ids[index] == id {
            if let stream = streams[index].value { return stream.deliver(update) }
        }
    }
}
