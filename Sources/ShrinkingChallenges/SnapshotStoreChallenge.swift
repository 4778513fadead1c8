// S1 of CHALLENGES.md: a versioned store whose compaction uses the newest live snapshot as its
// horizon instead of the oldest; found by stateful testing against a model.
import Exploration

/// The store under test: versions per key stamped by a logical clock, live snapshots, and the
/// planted bug in `compact()`.
struct SnapshotStore {
    private var clock = 0
    private var versions = [[(stamp: Int, value: Int)]](repeating: [], count: 10)
    private var snapshots: [Int: Int] = [:]  // handle → clock; only looked up, never iterated
    private var nextHandle = 0

    mutating func put(_ key: Int, _ value: Int) {
        clock += 1
        versions[key].append((clock, value))
    }

    func get(_ key: Int) -> Int? { versions[key].last?.value }

    mutating func snapshot() -> Int {
        defer { nextHandle += 1 }
        snapshots[nextHandle] = clock
        return nextHandle
    }

    func read(_ handle: Int, _ key: Int) -> Int? {
        guard let stamp = snapshots[handle] else { return nil }
        return versions[key].last { $0.stamp <= stamp }?.value
    }

    mutating func release(_ handle: Int) { snapshots[handle] = nil }

    /// The planted bug: the horizon is the newest live snapshot's clock, not the oldest's.
    mutating func compact() {
        let horizon = snapshots.values.max() ?? clock
        for key in versions.indices {
            guard let keep = versions[key].lastIndex(where: { $0.stamp <= horizon }) else {
                continue
            }
            versions[key].removeFirst(keep)
        }
    }
}

/// A command of the snapshot-store machine; snapshots are named by creation order (s0, s1…).
enum SnapshotCommand: CustomStringConvertible, Equatable, Sendable {
    case put(key: Int, value: Int)
    case get(key: Int)
    case snapshot(name: Int)
    case read(name: Int, key: Int)
    case release(name: Int)
    case compact

    var description: String {
        switch self {
        case .put(let key, let value): "put(\(key),\(value))"
        case .get(let key): "get(\(key))"
        case .snapshot(let name): "s\(name) = snapshot()"
        case .read(let name, let key): "read(s\(name), \(key))"
        case .release(let name): "release(s\(name))"
        case .compact: "compact()"
        }
    }
}

/// The model: every write in order (it never compacts), and each live snapshot's write count.
struct SnapshotModel {
    var writes: [(key: Int, value: Int)] = []
    var live: [(name: Int, writeCount: Int)] = []
    var snapshotCount = 0

    func value(of key: Int, amongFirst count: Int) -> Int? {
        writes[..<count].last { $0.key == key }?.value
    }
}

/// The stateful machine of S1.
struct SnapshotMachine: StateMachine {
    func initialModel() -> SnapshotModel { SnapshotModel() }
    func makeSystem() -> (store: SnapshotStore, handles: [Int: Int]) { (SnapshotStore(), [:]) }

    func commands(in model: SnapshotModel) -> Gen<SnapshotCommand> {
        let key = Gen<Int>.int(in: 0...9)
        let value = Gen<Int>.int(in: 0...9)
        var choices: [Gen<SnapshotCommand>] = [
            Gen.zip(key, value).map { SnapshotCommand.put(key: $0, value: $1) },
            key.map { SnapshotCommand.get(key: $0) },
            .constant(.snapshot(name: model.snapshotCount)),
        ]
        if !model.live.isEmpty {
            let name = Gen.element(of: model.live.map(\.name))
            choices.append(Gen.zip(name, key).map { SnapshotCommand.read(name: $0, key: $1) })
            choices.append(name.map { SnapshotCommand.release(name: $0) })
        }
        choices.append(.constant(.compact))
        return .oneOf(choices)
    }

    func apply(_ command: SnapshotCommand, to model: inout SnapshotModel) {
        switch command {
        case .put(let key, let value): model.writes.append((key, value))
        case .snapshot(let name):
            model.live.append((name, model.writes.count))
            model.snapshotCount += 1
        case .release(let name): model.live.removeAll { $0.name == name }
        case .get, .read, .compact: break
        }
    }

    func run(
        _ command: SnapshotCommand, on system: inout (store: SnapshotStore, handles: [Int: Int]),
        model: SnapshotModel
    ) throws {
        switch command {
        case .put(let key, let value): system.store.put(key, value)
        case .get(let key):
            let expected = model.value(of: key, amongFirst: model.writes.count)
            let actual = system.store.get(key)
            try check(
                actual == expected,
                "got \(String(describing: actual)), expected \(String(describing: expected))")
        case .snapshot(let name): system.handles[name] = system.store.snapshot()
        case .read(let name, let key):
            let count = model.live.first { $0.name == name }!.writeCount
            let expected = model.value(of: key, amongFirst: count)
            let actual = system.store.read(system.handles[name]!, key)
            try check(
                actual == expected,
                "read \(String(describing: actual)), expected \(String(describing: expected))")
        case .release(let name): system.store.release(system.handles[name]!)
        case .compact: system.store.compact()
        }
    }
}

extension ShrinkingChallenge {
    /// S1: at most 50 commands. Tier A:
    /// `[put(0,0), s0 = snapshot(), put(0,0), s1 = snapshot(), compact(), read(s0, 0)]`.
    static let snapshotStore = make(
        "snapshot_store",
        generator: {
            SnapshotMachine().commandSequences(lengthMax: 50)
        }, render: { renderList($0) },
        tier: { commands in
            let minimal: [SnapshotCommand] = [
                .put(key: 0, value: 0), .snapshot(name: 0), .put(key: 0, value: 0),
                .snapshot(name: 1), .compact, .read(name: 0, key: 0),
            ]
            if commands == minimal { return .a }
            return commands.count == 6 ? .b : .c
        },
        property: { commands in
            try SnapshotMachine().execute(commands)
        })
}
