// The app's profile read from its own Info.plist (layer 4): the background modes, the usage
// descriptions and the life cycle a team already declares, so that nothing is written twice.
import Formats
import World

extension AppProfile {
    /// The profile with the facts of the Info.plist at `path`:
    /// - `UIBackgroundModes`: an array of modes from `knownBackgroundModes`; `location` there is
    ///   the location background mode (R-A3, R-A9), and no array means no mode;
    /// - `UIApplicationSceneManifest`: present, the scene-based life cycle (R-A11);
    /// - `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may schedule (none
    ///   when absent); with the modes, what `BGTaskScheduler` and silent pushes need (R-H11);
    /// - the usage descriptions: `NSLocationWhenInUseUsageDescription` must be there (iOS shows
    ///   no location prompt to an app without it), and an app whose `authorization` asks for
    ///   Always must also have `NSLocationAlwaysAndWhenInUseUsageDescription` (without it iOS
    ///   ignores `requestAlwaysAuthorization`, so the profile could not be what it says).
    ///
    /// Everything else in the profile (authorization asked and when, tracking start, launch
    /// rules, reader) is kept.
    /// - Throws: `AppProfileError.infoPlist` naming the file, the line and what was expected:
    ///   a file that is not an XML property list, an unknown mode, a missing description.
    public func declaring(infoPlistAt path: String) throws(AppProfileError) -> AppProfile {
        let plist: PropertyList
        do {
            plist = try PropertyList.read(file: path)
        } catch {
            throw .infoPlist(error)
        }
        return try declaring(plist, path: path)
    }

    /// The same, from a property list already read; `path` names it in errors.
    public func declaring(_ plist: PropertyList, path: String) throws(AppProfileError)
        -> AppProfile
    {
        func fail(_ line: Int, _ message: String) -> AppProfileError {
            .infoPlist(PropertyListError(path: path, line: line, message: message))
        }
        var modes: [String] = []
        if let entry = plist.entry(Self.backgroundModesKey) {
            guard case .array(let elements, let lines) = entry.value else {
                throw fail(
                    entry.line, "expected \(Self.backgroundModesKey) to be an array of strings")
            }
            for (element, line) in zip(elements, lines) {
                guard let mode = element, Self.knownBackgroundModes.contains(mode) else {
                    let named = element.map { "the unknown mode '\($0)'" } ?? "a non-string"
                    throw fail(
                        line,
                        "\(Self.backgroundModesKey) names \(named); expected modes among "
                            + Self.knownBackgroundModes.joined(separator: ", "))
                }
                modes.append(mode)
            }
        }
        guard hasDescription(plist, Self.whenInUseDescriptionKey) else {
            throw fail(
                plist.entry(Self.whenInUseDescriptionKey)?.line ?? 0,
                "expected a non-empty string for \(Self.whenInUseDescriptionKey): iOS shows no "
                    + "location prompt to an app without it")
        }
        if authorization.asksForAlways, !hasDescription(plist, Self.alwaysDescriptionKey) {
            throw fail(
                plist.entry(Self.alwaysDescriptionKey)?.line ?? 0,
                "the profile asks for Always (\(authorization.level.rawValue)), so expected a "
                    + "non-empty string for \(Self.alwaysDescriptionKey): without it iOS "
                    + "ignores requestAlwaysAuthorization")
        }
        var identifiers: [String] = []
        if let entry = plist.entry(Self.permittedIdentifiersKey) {
            guard case .array(let elements, let lines) = entry.value else {
                throw fail(
                    entry.line, "expected \(Self.permittedIdentifiersKey) to be an array of strings"
                )
            }
            for (element, line) in zip(elements, lines) {
                guard let identifier = element else {
                    throw fail(line, "\(Self.permittedIdentifiersKey) holds a non-string")
                }
                identifiers.append(identifier)
            }
        }
        var profile = self
        profile.capabilities = AppCapabilities(
            locationBackgroundMode: modes.contains("location"),
            sceneBased: plist.entry(Self.sceneManifestKey) != nil, backgroundModes: modes,
            permittedTaskIdentifiers: identifiers)
        return profile
    }

    private func hasDescription(_ plist: PropertyList, _ key: String) -> Bool {
        guard case .string(let text) = plist.entry(key)?.value else { return false }
        return !text.allSatisfy(\.isWhitespace)
    }

    /// The Info.plist keys read (Apple's Information Property List reference).
    static let backgroundModesKey = "UIBackgroundModes"
    static let whenInUseDescriptionKey = "NSLocationWhenInUseUsageDescription"
    static let alwaysDescriptionKey = "NSLocationAlwaysAndWhenInUseUsageDescription"
    static let sceneManifestKey = "UIApplicationSceneManifest"
    static let permittedIdentifiersKey = "BGTaskSchedulerPermittedIdentifiers"
}
