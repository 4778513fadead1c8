// The distinct lifecycle states and transitions a fuzzing run has reached (layer 5): how much
// of the world the cases have explored, and what tells the guided search a case is new.
import Invariants
import Simulation

/// What one run reached: its abstract states (`LifecycleState.key`) and transitions (pairs of
/// consecutive different states, `LifecycleState.transitionKey`), each once, in the order first
/// reached.
public struct LifecyclePath: Sendable, Equatable {
    public var states: [UInt64] = []
    public var transitions: [UInt64] = []

    public init() {}

    /// The path of `record`'s run.
    public init(_ record: RunRecord) {
        var reachedStates: Set<UInt64> = []  // membership only; the arrays keep the order
        var reachedTransitions: Set<UInt64> = []
        var previous: UInt64?
        LifecycleState.walk(record) { state in
            let key = state.key
            if reachedStates.insert(key).inserted { states.append(key) }
            if let previous, previous != key {
                let transition = LifecycleState.transitionKey(from: previous, to: key)
                if reachedTransitions.insert(transition).inserted { transitions.append(transition) }
            }
            previous = key
        }
    }
}

/// The distinct abstract lifecycle states (`LifecycleState`) and transitions seen across runs.
/// Only the counts are reported; the sets are membership only (never iterated), so hashing
/// order never reaches an output. Both are finite by the abstraction, and each is capped at
/// `countMax` besides, so memory stays flat however long a run is.
public struct LifecycleStates: Sendable {
    private var seenStates: Set<UInt64> = []
    private var seenTransitions: Set<UInt64> = []

    /// States, and transitions, kept at most (far above what runs reach: a few thousand).
    public static let countMax = 1 << 20

    public init() {}

    /// How many distinct states have been seen.
    public var count: Int { seenStates.count }
    /// How many distinct transitions have been seen.
    public var transitionCount: Int { seenTransitions.count }

    /// Adds the path of one run.
    @discardableResult
    public mutating func add(_ record: RunRecord) -> Bool {
        add(LifecyclePath(record))
    }

    /// Adds a path found by `LifecyclePath.init`, on whichever thread ran the run: the counts
    /// after adding the same runs are the same in any order. Returns whether it held a state
    /// or transition not seen before (what makes the guided search keep a case).
    @discardableResult
    public mutating func add(_ path: LifecyclePath) -> Bool {
        var isNew = false
        for state in path.states where seenStates.count < Self.countMax {
            if seenStates.insert(state).inserted { isNew = true }
        }
        for transition in path.transitions where seenTransitions.count < Self.countMax {
            if seenTransitions.insert(transition).inserted { isNew = true }
        }
        return isNew
    }
}
