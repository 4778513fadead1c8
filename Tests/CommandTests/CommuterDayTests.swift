import Simulation
import Testing
import World

// The commuter day, the workload of `lifeline bench day`: what a realistic day on the world
// model does, and that it is the same day every time.
@testable import Benchmarks

@Suite("Commuter day")
struct CommuterDayTests {
    @Test(
        "R-C2: a commuter day pauses live updates three times and tracks both drives in the background"
    )
    func commuterDay() {
        let day = CommuterDay().run()
        #expect(day.stationaryUpdates == 3)
        // Two 45-minute drives and two 10-minute walks at one fix a second, plus the two
        // minutes of stillness before each pause.
        #expect(abs(day.fixesReceived - (2 * 55 * 60 + 3 * 120)) <= 10)
        #expect(day.launches == 1)
    }

    @Test("the same world run twice gives the same trace hash")
    func determinism() {
        func hash() -> UInt64 {
            let trace = HashingTrace<WorldMessage>()
            var world = World(WorldConfiguration(route: CommuterDay.route, seed: 9), trace: trace) {
                SessionTracker()
            }
            world.schedule(.open, at: .start + .hours(7))
            world.schedule(.leave, at: .start + .hours(7) + .minutes(1))
            world.run(until: .start + .hours(9))
            return trace.hash.value
        }
        #expect(hash() == hash())
    }
}
