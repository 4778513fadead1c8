// The scenario files the `run` and `replay` tests feed the tool, and how a corpus entry wraps
// one.

enum SampleScenarios {
    /// The session engine killed for memory while parked (suspended), relaunched by iOS when
    /// the device drives off at 25 min: every invariant holds, one relaunch 10 min 1 s after
    /// the kill.
    static let passing = """
        # parked long enough to be suspended, killed for memory, relaunched at the drive-off
        engine session
        authorization always
        horizon 30m
        route
          drive 5m at 13.9 m/s
          park 20m
          drive 5m at 13.9 m/s
        events
          0s open
          30s leave
          15m memory-pressure
        end
        """

    /// What `lifeline fuzz --engine retry-without-idempotency --cases 200` found and shrank
    /// (seed 1, case 0): with 30 % of uploads failing, the mutant retries without a key,
    /// so the server accepts fixes twice (`uploaded-once` fails; the rest hold).
    static func retryWithoutIdempotency(engine: String = "retry-without-idempotency") -> String {
        """
        engine \(engine)
        policy measured networkFailurePercent=30
        authorization always
        accuracy full
        capabilities location-background scene-based
        answers whenInUse=when-in-use always=always responseDelay=2s temporaryFullAccuracy=true
        ordering fifo
        seed 1
        horizon 11m
        route from 51.5007,-0.1246 heading 90
          drive 1m at 13.9 m/s
        events
          0s open
        end
        """
    }

    /// `scenario` as a corpus entry in format `version` that records `invariant`.
    static func corpusEntry(_ scenario: String, invariant: String, version: Int = 1) -> String {
        """
        # lifeline corpus \(version)
        # invariant: \(invariant)
        # found: lifeline fuzz --engine retry-without-idempotency --seed 1 (case 0)
        \(scenario)
        """
    }

    /// The first violation of uploaded-once in `lifeline run`'s or `lifeline replay`'s text:
    /// the instant the server accepted a fix again, the fix's instant, and the row count of the
    /// batch that repeated it (each of its rows is accepted twice).
    static func firstRepeatedUpload(in text: String) -> (
        instant: Substring, fix: Substring, batchRows: Int
    )? {
        let marker = " was accepted by the server a second time at "
        guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
            let fixStart = line.range(of: "fix at "), let markerRange = line.range(of: marker),
            let batch = line.range(of: " in batch "),
            let plus = line[batch.upperBound...].firstIndex(of: "+"),
            let comma = line[plus...].firstIndex(of: ","),
            let rows = Int(line[line.index(after: plus)..<comma])
        else { return nil }
        return (
            line[markerRange.upperBound..<batch.lowerBound],
            line[fixStart.upperBound..<markerRange.lowerBound], rows
        )
    }
}
