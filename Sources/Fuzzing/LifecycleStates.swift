// The distinct lifecycle states and transitions a fuzzing run has reached (layer 5): how much
// of the world the cases have explored, and what tells the guided search a case is new.
import Invariants
import Simulation

/// What one run reached: its abstract states (`LifecycleState.key`) and transitions (pairs of
/// consecutive different states, `LifecycleState.transitionKey`), each once, in the order first
/// reached.
public struct LifecyclePath: Sendable, Equatable {
    public var states: [UInt64] = []
    package var transitions: [UInt64] = []

    package init() {}

    /// The path of `record`'s run.
    package init(_ record: RunRecord) {
        var reachedStates = KeySet()  // membership only; the arrays keep the order
        var reachedTransitions = KeySet()
        // The pairs of states seen in a row: a transition's key is hashed only the first
        // time its pair is seen (a pair seen before has its key in `reachedTransitions`).
        var reachedPairs = KeyPairSet()
        // The pairs met last, by a slot their keys pick: a run's routine entries go round a
        // few states (fix, commit durable, did commit), whose pairs are found here without a
        // look in the sets. A pair here was added to both sets when first met.
        var recentPairs = RecentPairs()
        var previous: UInt64?
        LifecycleState.walkKeys(record) { key in
            guard key != previous else { return }  // reached already, and no transition
            defer { previous = key }
            guard let source = previous else {
                if reachedStates.insert(key) { states.append(key) }
                return
            }
            if recentPairs.containsElseAdds(source, key) { return }
            if reachedStates.insert(key) { states.append(key) }
            if reachedPairs.insert(source, key) {
                let transition = LifecycleState.transitionKey(from: source, to: key)
                if reachedTransitions.insert(transition) { transitions.append(transition) }
            }
        }
    }
}

/// The distinct abstract lifecycle states (`LifecycleState`) and transitions seen across runs,
/// each with the number of runs that reached it (its hits). Only counts and lookups leave it;
/// the tables are never iterated, so hashing order never reaches an output. Both are finite by
/// the abstraction, and each is capped at `countMax` besides, so memory stays flat however long
/// a run is.
///
/// The hits tell the guided search how rare what a case reached is (`energy(of:)`): a state
/// few runs reach is worth more to mutate around than one every run reaches, as libFuzzer's
/// Entropic and FairFuzz weigh seeds by the rarity of their features.
public struct LifecycleStates: Sendable {
    // invariant: every count is at least 1 (a key is added with its first hit).
    private var stateHits: [UInt64: UInt32] = [:]
    private var transitionHits: [UInt64: UInt32] = [:]

    /// States, and transitions, kept at most (far above what runs reach: a few thousand).
    package static let countMax = 1 << 20
    /// What one state or transition reached by a single run is worth (`energy(of:)`): a power
    /// of two, so that a share of it stays an integer far down.
    static let rarityScale: UInt64 = 1 << 20

    package init() {}

    /// How many distinct states have been seen.
    public var count: Int { stateHits.count }
    /// How many distinct transitions have been seen.
    public var transitionCount: Int { transitionHits.count }

    /// Adds the path of one run.
    @discardableResult
    public mutating func add(_ record: RunRecord) -> Bool {
        add(LifecyclePath(record))
    }

    /// Adds a path found by `LifecyclePath.init`, on whichever thread ran the run: the counts
    /// and hits after adding the same runs are the same in any order. Returns whether it held
    /// a state or transition not seen before (what makes the guided search keep a case).
    @discardableResult
    public mutating func add(_ path: LifecyclePath) -> Bool {
        let newStates = Self.hit(path.states, in: &stateHits)
        let newTransitions = Self.hit(path.transitions, in: &transitionHits)
        return newStates || newTransitions
    }

    /// How many runs added so far reached the state `key` (0 for none).
    package func hits(ofState key: UInt64) -> Int { Int(stateHits[key] ?? 0) }
    /// How many runs added so far reached the transition `key` (0 for none).
    package func hits(ofTransition key: UInt64) -> Int { Int(transitionHits[key] ?? 0) }

    /// How rare what `path` reached is: the sum, over its states and transitions, of
    /// `rarityScale` divided by the runs that reached each (one that no run reached yet counts
    /// as reached once). A path through one state no other run reached outweighs one through a
    /// hundred states that a thousand runs reached. Integer arithmetic only, so the same in
    /// every process.
    public func energy(of path: LifecyclePath) -> UInt64 {
        var energy: UInt64 = 0
        for state in path.states {
            energy += Self.rarityScale / UInt64(max(stateHits[state] ?? 1, 1))
        }
        for transition in path.transitions {
            energy += Self.rarityScale / UInt64(max(transitionHits[transition] ?? 1, 1))
        }
        return energy
    }

    // MARK: - Internals

    /// Counts one hit of each key of `keys` in `hits` (a new key only while the table is under
    /// `countMax`; a count stops at its maximum); returns whether a key was new.
    static func hit(_ keys: [UInt64], in hits: inout [UInt64: UInt32]) -> Bool {
        var isNew = false
        for key in keys {
            if let count = hits[key] {
                if count < .max { hits[key] = count + 1 }
            } else if hits.count < countMax {
                hits[key] = 1
                isNew = true
            }
        }
        return isNew
    }
}
