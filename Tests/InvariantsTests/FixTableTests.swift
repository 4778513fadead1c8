// The invariants' fix table: every key added is found with its value across growth, a key
// never added is not, and counts of a multiset come back as taken.
import Simulation
import Testing

@testable import Invariants
@testable import World

@Suite("Fix table")
struct FixTableTests {
    /// A fix one second apart per index, on a line: distinct in instant and position.
    static func fix(_ index: Int, accuracy: Double = 5) -> Fix {
        Fix(
            instant: .start + .seconds(Int64(index)),
            coordinate: Coordinate(latitude: 51.5 + Double(index) * 1e-5, longitude: -0.12),
            horizontalAccuracyMeters: accuracy, source: .gnss, speedMetersPerSecond: 13.9)
    }

    @Test("a thousand keys added past several growths are each found with their value")
    func growth() {
        var table = FixTable<Int>()
        for index in 0..<1_000 {
            let added = table.insert(FixKey(Self.fix(index)), index)
            #expect(added)
        }
        #expect(table.count == 1_000)
        #expect((0..<1_000).allSatisfy { table.value(for: FixKey(Self.fix($0))) == $0 })
        #expect(table.value(for: FixKey(Self.fix(1_000))) == nil)
    }

    @Test("a key is added once; a fix that differs in one field only is another key")
    func identity() {
        var table = FixTable<String>()
        let first = table.insert(FixKey(Self.fix(1)), "first")
        let second = table.insert(FixKey(Self.fix(1)), "second")
        #expect(first && !second)
        #expect(table.value(for: FixKey(Self.fix(1))) == "first")
        #expect(table.value(for: FixKey(Self.fix(1, accuracy: 6))) == nil)
    }

    @Test("counts of a multiset: each occurrence is taken once, then no more")
    func counts() {
        var counts = FixCounts([Self.fix(1), Self.fix(2), Self.fix(1)])
        #expect(counts.count(of: Self.fix(1)) == 2)
        let taken = [counts.take(Self.fix(1)), counts.take(Self.fix(1)), counts.take(Self.fix(1))]
        #expect(taken == [true, true, false])
        #expect(counts.count(of: Self.fix(2)) == 1)
        let never = counts.take(Self.fix(3))
        #expect(!never)
    }
}
