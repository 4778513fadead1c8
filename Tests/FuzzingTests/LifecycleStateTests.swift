// The abstract lifecycle state's key and the walk that reads it off a run: the key packs each
// field as its index in `allCases`, and the key-only walk the path uses gives the same keys,
// entry for entry, as the walk that makes every state.
import Exploration
import Invariants
import Scenarios
import Simulation
import Testing
import World

@testable import Fuzzing

@Suite("Lifecycle states")
struct LifecycleStateTests {
    /// The key as its definition says: FNV-1a over the kind's words, then over one word with
    /// each field at its place, a field being its index in its type's `allCases`.
    static func definedKey(_ state: LifecycleState) -> UInt64 {
        var hash = FNV1a64()
        hash.combine(state.entryKind)
        let services = state.services.reduce(UInt64(0)) { mask, service in
            mask | 1 << UInt64(LocationService.allCases.firstIndex(of: service)!)
        }
        var word = UInt64(ProcessState.allCases.firstIndex(of: state.processState)!)
        word |= services << 8
        word |= UInt64(Authorization.allCases.firstIndex(of: state.authorization)!) << 16
        word |= (state.isDataReadable ? 1 : 0) << 24
        word |= (state.isCommitInFlight ? 1 : 0) << 25
        word |= (state.isUploadInFlight ? 1 : 0) << 26
        hash.combine(word: word)
        return hash.value
    }

    @Test("a state's key packs every process state, authorization and service by its index")
    func keyPacksFieldsByIndex() {
        var state = LifecycleState(
            processState: .notRunning, kind: EntryKind("fix"), servicesMask: 0,
            authorization: .notDetermined, isDataReadable: true, isCommitInFlight: false,
            isUploadInFlight: false)
        var keys: Set<UInt64> = []
        for processState in ProcessState.allCases {
            for authorization in Authorization.allCases {
                for service in LocationService.allCases {
                    state.processState = processState
                    state.authorization = authorization
                    state.services = [service]
                    state.isCommitInFlight = service == .liveUpdates
                    #expect(state.key == Self.definedKey(state))
                    keys.insert(state.key)
                }
            }
        }
        let count =
            ProcessState.allCases.count * Authorization.allCases.count
            * LocationService.allCases.count
        #expect(keys.count == count, "every combination its own key")
    }

    @Test("the key-only walk and the path agree with the states the full walk makes")
    func keyWalkMatchesStateWalk() throws {
        let generator = ScenarioGenerator(engine: .builtIn(.session)).scenarios
        var entries = 0
        for seed in 0..<12 as Range<UInt64> {
            let testCase = TestCase(seed: Seed(seed).derive("key walk").value)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid else { continue }
            let record = try scenario.record()
            var stateKeys: [UInt64] = []
            LifecycleState.walk(record) { stateKeys.append($0.key) }
            var walkedKeys: [UInt64] = []
            LifecycleState.walkKeys(record) { walkedKeys.append($0) }
            #expect(walkedKeys == stateKeys, "seed \(seed)")
            entries += walkedKeys.count
            // The path: each state and transition once, in the order first reached.
            var (states, transitions) = ([UInt64](), [UInt64]())
            for key in stateKeys where !states.contains(key) { states.append(key) }
            for (source, target) in zip(stateKeys, stateKeys.dropFirst()) where source != target {
                let transition = LifecycleState.transitionKey(from: source, to: target)
                if !transitions.contains(transition) { transitions.append(transition) }
            }
            let path = LifecyclePath(record)
            #expect(path.states == states && path.transitions == transitions, "seed \(seed)")
        }
        #expect(entries > 1_000)
    }
}
