// LocationRuntime's settings (layer 4): one value, every default documented with its rule.
import World

/// How a `LocationRuntime` behaves: the host app's first-open features, the authorization it
/// asks for, the live-updates configuration of a workout, and its uploader. Every default is
/// the quiet choice the rules allow.
public struct LocationRuntimeSettings: Sendable, Equatable {
    /// The features the host app starts at its first open (a foreground launch with nothing
    /// saved yet), saved at once. Default: none, so an app that never starts a feature starts
    /// nothing (R-A14). Later launches restore the saved features instead.
    public var initialFeatures = LocationFeatures()
    /// Whether the runtime asks for authorization in the foreground when its features need it:
    /// When In Use while undetermined, then Always when a feature needs it (watched places,
    /// commute detection; R-A3, R-F5). Default true. It never starts a service while the
    /// authorization is undetermined (R-A13), asked or not.
    public var requestsAuthorization = true
    /// The live-updates configuration of a workout (R-C3). Default `.fitness`, the old
    /// activity type of a workout.
    public var workoutConfiguration = LiveConfiguration.fitness
    /// The uploader of recorded fixes (R-D13): `UploaderConfiguration.batched`.
    public var uploader = UploaderConfiguration.batched

    public init(
        initialFeatures: LocationFeatures = LocationFeatures(), requestsAuthorization: Bool = true,
        workoutConfiguration: LiveConfiguration = .fitness,
        uploader: UploaderConfiguration = .batched
    ) {
        self.initialFeatures = initialFeatures
        self.requestsAuthorization = requestsAuthorization
        self.workoutConfiguration = workoutConfiguration
        self.uploader = uploader
    }
}
