// Virtual time: instants and durations, their readable forms, and parsing what people write.
import Testing

@testable import Simulation

@Suite("Virtual time")
struct TimeTests {
    @Test(
        "durations parse as people write them",
        arguments: [
            ("90s", 90_000_000_000), ("15m", 900_000_000_000), ("1h30m", 5_400_000_000_000),
            ("1.5s", 1_500_000_000), ("250ms", 250_000_000), ("11.4s", 11_400_000_000),
            ("2d", 172_800_000_000_000), ("10us", 10_000), ("7ns", 7), ("0", 0),
            ("1m0.5s", 60_500_000_000),
        ] as [(String, Int64)])
    func parses(text: String, nanoseconds: Int64) throws {
        #expect(try VirtualDuration(parsing: text).nanoseconds == nanoseconds)
    }

    @Test(
        "malformed durations are errors that name the text",
        arguments: [
            "", "5", "s", "5x", "1.s", "1..5s", "-5s", "1.0000000001s", "99999999999999999999h",
            "1h 30m",
        ])
    func rejects(text: String) {
        #expect {
            try VirtualDuration(parsing: text)
        } throws: { error in
            (error as? DurationParseError)?.text == text && "\(error)".contains("'\(text)'")
        }
    }

    @Test(
        "a duration's description parses back to itself",
        arguments: [
            0, 1, 999, 1_000, 250_000_000, 1_500_000_000, 90_000_000_000, 5_400_000_000_000,
            5_400_500_000_000, 86_400_000_000_001,
        ] as [Int64])
    func durationRoundTrip(nanoseconds: Int64) throws {
        let duration = VirtualDuration(nanoseconds: nanoseconds)
        #expect(try VirtualDuration(parsing: duration.description) == duration)
    }

    @Test("an instant reads as hh:mm:ss.mmm")
    func instantDescription() {
        #expect((Instant.start + .seconds(723) + .milliseconds(250)).description == "00:12:03.250")
        #expect(Instant.start.description == "00:00:00.000")
        #expect((Instant.start + .hours(26)).description == "26:00:00.000")
        #expect((Instant.start + .nanoseconds(1_000_000_500)).description == "00:00:01.000000500")
    }

    @Test("an instant's description parses back to itself, and offsets parse too")
    func instantRoundTrip() {
        for nanoseconds: Int64 in [0, 1, 723_250_000_000, 93_600_000_000_000, 1_000_000_500] {
            let instant = Instant(nanosecondsSinceStart: nanoseconds)
            #expect(Instant(parsing: instant.description) == instant)
        }
        #expect(Instant(parsing: "1h30m") == .start + .minutes(90))
        #expect(Instant(parsing: "00:61:00") == nil)
        #expect(Instant(parsing: "00:00:60") == nil)
        #expect(Instant(parsing: "soon") == nil)
    }

    @Test("instant arithmetic is exact")
    func arithmetic() {
        let later = Instant.start + .seconds(3) + .nanoseconds(7)
        #expect(later - .start == .nanoseconds(3_000_000_007))
        #expect(Instant.start - later == .nanoseconds(-3_000_000_007))
        #expect(VirtualDuration(seconds: 11.5) == .milliseconds(11_500))
    }
}
