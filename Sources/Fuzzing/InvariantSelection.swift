// Which invariants a run judges (layer 5): those that apply to the app, as its profile
// declares it, narrowed by what the team asked for (`--only`, `--skip`).
import Engines
import Foundation
import Invariants

/// The invariants a run judges. The app's profile decides which apply at all (an app that
/// uploads nothing, `AppProfile.uploads == .nothing`, is not judged by `uploaded-once`); a
/// team may then keep only some (`--only`) or leave some out (`--skip`), by name. The order
/// stays the one given (`Invariant.builtIn`'s), so reports read the same.
public struct InvariantSelection: Sendable, Equatable {
    /// The invariants kept, if only some are (empty: every one that applies).
    public var only: [String] = []
    /// The invariants left out.
    public var skip: [String] = []

    public init() {}

    /// A selection of `only` and `skip`, each a name or a comma-separated list of names.
    /// - Throws: `UnknownName` for a name no built-in invariant or advice has, naming the
    ///   valid ones.
    public init(only: [String], skip: [String]) throws(UnknownName) {
        self.only = try Self.names(only)
        self.skip = try Self.names(skip)
    }

    /// A name that is no invariant's.
    public struct UnknownName: Error, Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var description: String {
            "no invariant is called '\(name)'; the invariants are "
                + InvariantSelection.validNames.joined(separator: ", ")
        }
    }

    /// Every name a selection may use: the built-in rules, then the advice.
    public static var validNames: [String] {
        (Invariant.builtIn + Invariant.advice).map(\.name)
    }

    /// The name of the invariant an app that uploads nothing is not judged by.
    static let uploadedOnceName = Invariant.uploadedOnce().name

    /// `invariants` that apply to an app with `profile` and that this selection keeps.
    public func applied(to invariants: [Invariant], profile: AppProfile) -> [Invariant] {
        invariants.filter { invariant in
            if profile.uploads == .nothing && invariant.name == Self.uploadedOnceName {
                return false
            }
            if !only.isEmpty && !only.contains(invariant.name) { return false }
            return !skip.contains(invariant.name)
        }
    }

    static func names(_ lists: [String]) throws(UnknownName) -> [String] {
        var names: [String] = []
        for list in lists {
            for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where !name.isEmpty {
                guard validNames.contains(name) else { throw UnknownName(name: name) }
                names.append(name)
            }
        }
        return names
    }
}
