// Appending to large arrays: once an array holds `gentleGrowthMin` elements, a full one grows by
// a quarter, so its unused room stays under a quarter of its count, and nothing is lost.
import Testing

@testable import Simulation

@Suite("Gentle growth of large arrays")
struct GentleGrowthTests {
    @Test("past the threshold, room never exceeds a quarter of the count, one at a time or many")
    func roomStaysUnderAQuarter() {
        let minimum = [Int].gentleGrowthMin
        var single: [Int] = []
        var batched: [Int] = []
        var worstSingle = 0.0
        var worstBatched = 0.0
        for index in 0..<(minimum * 3) {
            single.appendGrowingGently(index)
            if index % 7 == 0 { batched.appendGrowingGently(contentsOf: index..<(index + 7)) }
            if single.count > minimum {
                worstSingle = max(worstSingle, Double(single.capacity) / Double(single.count))
            }
            if batched.count > minimum {
                worstBatched = max(worstBatched, Double(batched.capacity) / Double(batched.count))
            }
        }
        let singleKept = single == Array(0..<(minimum * 3))
        let batchedKept = batched == Array(0..<batched.count) && batched.count >= minimum * 3
        #expect(singleKept, "every element appended one at a time is there, in order")
        #expect(batchedKept, "every element appended seven at a time is there, in order")
        // Doubling would reach 2; a quarter more, plus the allocator's rounding.
        #expect(worstSingle <= 1.26, "capacity/count \(worstSingle)")
        #expect(worstBatched <= 1.26, "capacity/count \(worstBatched)")
    }
}
