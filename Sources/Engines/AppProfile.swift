// The app's profile (layer 4): what a team declares once about its app, so that the fuzzer
// varies only what users, iOS, the network and the world vary, and keeps the app's facts.
import Formats
import World

/// What a team declares once about its app: its Info.plist (background modes), the
/// authorization it asks for and when, whether tracking starts at the first launch or on the
/// user's switch, and its launch rules. Every engine carries one (`EngineChoice.profile`,
/// `CustomEngine.profile`).
///
/// `ScenarioGenerator` keeps these facts fixed (a declared background mode is never removed,
/// the authorization answers are drawn among those the app can get) unless its
/// `fuzzesProfile` is on (`lifeline fuzz --fuzz-profile`), for a team asking "what if we
/// dropped the mode?". The built-in engines' profiles (`BuiltInEngine.profile`) describe their
/// host apps as the sources do, so that existing runs stay as they were. (How a fix is read
/// out of the app's stored rows is its `reader`.)
public struct AppProfile: Sendable, Equatable {
    /// The Info.plist: `UIBackgroundModes` (the `location` mode, R-A3, R-A9) and the life
    /// cycle (scene-based, R-A11).
    public var capabilities: AppCapabilities
    /// The authorization the app asks for, and when.
    public var authorization: AuthorizationRequest
    /// Whether the app tracks from its first launch or only once the user turns it on.
    public var trackingStart: TrackingStart
    /// `stopOnTerminate` and `startOnBoot` (R-B11, R-B12) as the app sets them; nil when the
    /// profile leaves them to each scenario (the `engine` line's settings, drawn by the
    /// fuzzer): an SDK whose host apps choose, or an engine without them.
    public var launchRules: LaunchRules?
    /// How to read a location out of the app's stored rows and upload payloads, so that the
    /// invariants judge what the app wrote (`FixReader.fixRecorder` for `FixRecorder`'s rows).
    public var reader: FixReader
    /// Whether the team's server deduplicates uploads by their idempotency key
    /// (`ServerDeduplication.byKey`, the default) or stores every request that reaches it:
    /// a fact of the server, the same in every run. A scenario runs with it unless its
    /// `server` line says otherwise (`Scenario.serverDeduplication`).
    public var serverDeduplication: ServerDeduplication
    /// Whether the app uploads what it stores (R-S2): to a server (`toServer`, the default,
    /// whose kind is `serverDeduplication`), or nothing at all (`nothing`: a tracker that
    /// keeps its data on the phone), whose runs `uploaded-once` does not judge.
    public var uploads = Uploads.toServer

    /// Where an app's stored fixes go.
    public enum Uploads: String, Sendable, Equatable, CaseIterable {
        /// To the team's server, by the app's uploader (`serverDeduplication` says which kind).
        case toServer = "server"
        /// Nowhere: the app keeps its data on the phone.
        case nothing
    }

    public init(
        capabilities: AppCapabilities = AppCapabilities(),
        authorization: AuthorizationRequest = AuthorizationRequest(),
        trackingStart: TrackingStart = .atFirstLaunch, launchRules: LaunchRules? = nil,
        reader: FixReader = .fixRecorder, serverDeduplication: ServerDeduplication = .byKey
    ) {
        self.capabilities = capabilities
        self.authorization = authorization
        self.trackingStart = trackingStart
        self.launchRules = launchRules
        self.reader = reader
        self.serverDeduplication = serverDeduplication
    }

    /// Two profiles are equal when every declared fact is; the reader, a function, is not
    /// compared.
    public static func == (left: AppProfile, right: AppProfile) -> Bool {
        left.capabilities == right.capabilities && left.authorization == right.authorization
            && left.trackingStart == right.trackingStart && left.launchRules == right.launchRules
            && left.serverDeduplication == right.serverDeduplication
            && left.uploads == right.uploads
    }

    /// The background modes an Info.plist may list (`UIBackgroundModes`, Apple's Information
    /// Property List reference), in its order. `location` (R-A3) and `fetch`,
    /// `remote-notification` and `processing` (R-H11) change what the world does; the others
    /// are accepted and have no effect in the model.
    public static let knownBackgroundModes = [
        "audio", "location", "voip", "external-accessory", "bluetooth-central",
        "bluetooth-peripheral", "fetch", "remote-notification", "processing",
        "nearby-interaction", "push-to-talk",
    ]

    /// The capabilities an Info.plist with these `UIBackgroundModes` declares.
    /// - Throws: `AppProfileError.unknownBackgroundMode` for a mode not in
    ///   `knownBackgroundModes`, naming it and the modes expected.
    public static func capabilities(backgroundModes: [String], sceneBased: Bool = true)
        throws(AppProfileError) -> AppCapabilities
    {
        for mode in backgroundModes where !knownBackgroundModes.contains(mode) {
            throw .unknownBackgroundMode(mode)
        }
        return AppCapabilities(
            locationBackgroundMode: backgroundModes.contains("location"), sceneBased: sceneBased,
            backgroundModes: backgroundModes)
    }
}

/// A profile that cannot be: a background mode no Info.plist can declare, or an Info.plist
/// that cannot be read or contradicts the profile (with its file and line).
public enum AppProfileError: Error, Equatable, CustomStringConvertible {
    /// A background mode no Info.plist can declare.
    case unknownBackgroundMode(String)
    /// An Info.plist that cannot be read, or says what the app cannot be.
    case infoPlist(PropertyListError)

    public var description: String {
        switch self {
        case .unknownBackgroundMode(let mode):
            "unknown background mode '\(mode)': expected one of "
                + AppProfile.knownBackgroundModes.joined(separator: ", ")
        case .infoPlist(let error): "\(error)"
        }
    }
}

/// When an app starts tracking.
public enum TrackingStart: String, Sendable, Equatable, CaseIterable {
    /// From its first launch: the host app calls `start()` when the user opens it and
    /// tracking is off, unless the user turned tracking off with its switch (what the
    /// built-in engines do).
    case atFirstLaunch
    /// Only once the user turns tracking on (`tracking on`, `UserAction.trackingOn`): until
    /// then nothing is wanted. The fuzzer draws a `tracking on` early in every scenario.
    case onUserToggle
}

/// The location authorization an app asks for, and when (`requestWhenInUseAuthorization`,
/// `requestAlwaysAuthorization`; the prompts and the user's answers are the world's,
/// `AuthorizationAnswers`). Usage descriptions are not modelled apart: an app asking for a
/// level is taken to declare the Info.plist keys that level needs.
public struct AuthorizationRequest: Sendable, Equatable {
    /// Which authorization it asks for.
    public enum Level: String, Sendable, Equatable, CaseIterable {
        /// When In Use only (`NSLocationWhenInUseUsageDescription`).
        case whenInUse
        /// Always, asked at once (`requestAlwaysAuthorization` while undetermined gives When
        /// In Use in the model; the later provisional prompt is not modelled).
        case always
        /// When In Use first, then Always once the app has it (Apple's two-step advice).
        case whenInUseThenAlways
    }

    /// When it asks.
    public enum Moment: String, Sendable, Equatable, CaseIterable {
        /// At its first launch in the foreground.
        case atFirstLaunch
        /// When tracking starts (the host app's `start()`).
        case atTrackingStart
    }

    public var level: Level
    public var moment: Moment

    public init(_ level: Level = .always, at moment: Moment = .atFirstLaunch) {
        self.level = level
        self.moment = moment
    }

    /// The authorizations the user can give this app, besides `denied`: When In Use, and
    /// Always when the app asks for it (Settings offers Always only to an app that declares
    /// its usage description).
    public var grantable: [Authorization] {
        level == .whenInUse ? [.whenInUse] : [.always, .whenInUse]
    }

    /// True when the app shows the Always prompt at some point.
    public var asksForAlways: Bool { level != .whenInUse }
}
