// The app's `Dictionary` and `Set` iterate in an order that follows its keys and insertions
// alone: built alike, two tables iterate alike, wherever they sit in memory (HashTableOrder).
import Testing
import World

/// At launch, builds `count` dictionaries with the same keys inserted in the same order, all
/// alive at once (so at as many addresses), and records each one's order of keys.
final class DictionaryOrderEngine: AppEngine {
    final class Record: @unchecked Sendable { var orders: [String] = [] }
    private let record: Record
    private let count: Int
    private var kept: [[String: Int]] = []

    init(_ record: Record, count: Int) {
        self.record = record
        self.count = count
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        // A location as `JSONEncoder` keys it: five keys in one object.
        let keys = ["latitude", "longitude", "horizontalAccuracy", "speed", "timestamp"]
        for index in 0..<count {
            var table: [String: Int] = [:]
            for key in keys { table[key] = index }
            kept.append(table)
            record.orders.append(table.keys.joined(separator: ","))
        }
    }
}

@Suite("The app's hash tables")
struct HashTableOrderTests {
    @Test("dictionaries the app builds alike iterate alike, at any address")
    func dictionariesBuiltAlikeIterateAlike() {
        let record = DictionaryOrderEngine.Record()
        _ = runWorld(route: parked, until: 1, actions: [(0, .open)]) {
            DictionaryOrderEngine(record, count: 200)
        }
        #expect(record.orders.count == 200)
        // With the per-table seed, 200 five-key tables took 96 to 120 of the 120 orders.
        #expect(Set(record.orders).count == 1, "\(Set(record.orders).count) orders")
    }
}
