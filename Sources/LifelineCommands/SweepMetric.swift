// The figures a sweep reports (the CLI layer): each with its column name, its unit and how it
// is read from a row's `RunFigures`, the one table the terminal, the CSV and the chart share.
import Fuzzing
import Simulation

/// One figure of a sweep's rows: its name on the command line (`--metric`), its column with
/// its unit, its decimals, and its value (nil where it does not exist: no gap, no relaunch).
struct SweepMetric: Sendable {
    var name: String
    var title: String
    var unit: String
    var digits: Int
    var value: @Sendable (RunFigures) -> Double?

    /// The column header: the title and the unit in brackets (`mean gap (s)`).
    var header: String { "\(title) (\(unit))" }

    /// `value` of `figures` as text with this metric's decimals, or empty.
    func text(_ figures: RunFigures) -> String {
        value(figures).map { PlainText.fixed($0, digits: digits) } ?? ""
    }

    /// Every metric, in column order.
    static let all: [SweepMetric] = [
        SweepMetric(
            name: "fixes-lost", title: "fixes lost", unit: "fixes", digits: 0,
            value: { Double($0.fixesLost) }),
        SweepMetric(
            name: "fixes-stored", title: "fixes stored", unit: "fixes", digits: 0,
            value: { Double($0.fixesStored) }),
        SweepMetric(
            name: "mean-gap", title: "mean gap", unit: "s", digits: 3,
            value: { $0.meanGap.map(seconds) }),
        SweepMetric(
            name: "longest-gap", title: "longest gap", unit: "s", digits: 3,
            value: { $0.longestGapIfAny.map(seconds) }),
        SweepMetric(
            name: "relaunch-latency", title: "mean relaunch latency", unit: "s", digits: 3,
            value: { $0.meanRelaunchLatency.map(seconds) }),
        SweepMetric(
            name: "gnss-on", title: "GNSS on", unit: "s", digits: 3,
            value: { seconds($0.gnssOnTime) }),
        SweepMetric(
            name: "invariant-failures", title: "invariant failures", unit: "run-invariants",
            digits: 0, value: { Double($0.invariantFailureCount) }),
    ]

    /// A duration in seconds, from its whole nanoseconds.
    static func seconds(_ duration: VirtualDuration) -> Double {
        Double(duration.nanoseconds) / 1e9
    }
}
