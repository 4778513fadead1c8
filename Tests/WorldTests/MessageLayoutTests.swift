// The size of the world's message, pinned: every delivery copies and moves it several times
// (into the queue, out of it, into the trace), and Swift copies a value of at most 128 bytes
// with inline moves but calls `memcpy` for a larger one. One byte over cost about 6 % of a
// fuzzing case's instructions (`DropReason.notRelaunched`, `MonitoringEvent.conditionChanged`
// are `indirect` for this).
import Simulation
import Testing

@testable import World

@Suite struct MessageLayoutTests {
    @Test("a WorldMessage fits in the 128 bytes that Swift copies without memcpy")
    func worldMessageFitsInlineCopies() {
        #expect(MemoryLayout<WorldMessage>.size <= 128)
    }

    @Test("the payloads that set the message's size stay small")
    func payloadsStaySmall() {
        #expect(MemoryLayout<DropReason>.size <= 9)
        #expect(MemoryLayout<AppItem>.size <= 80)
        #expect(MemoryLayout<MonitoringEvent>.size <= 64)
    }
}
