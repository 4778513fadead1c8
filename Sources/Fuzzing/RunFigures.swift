// What a sweep or a diff keeps of one run (layer 5): `RunMetrics`' figures in whole numbers and
// the invariants it broke, small enough to hand between threads, and their sum over runs.
import Invariants
import Simulation

/// The figures of one run, from its `RunMetrics` and the invariants checked on it.
///
/// **Fixes lost** are the fixes the location daemon produced for the app that never reached
/// the app's code: `RunMetrics.fixesProduced − fixesDelivered`. Each was withheld or dropped
/// under an iOS rule (the When In Use grace, R-A4; a process that ended, R-A1; a full queue,
/// R-A2; …) or still held at the end. It is what a policy takes away from any app, a probe
/// that stores nothing included; what an engine loses on its own side (a fix delivered and
/// never stored) is the `no-fix-lost-after-restore` invariant's, and the fixes an app never
/// asked for because iOS did not relaunch it show in `fixesStored` and the gaps.
public struct RunFigures: Sendable, Equatable {
    public var fixesProduced = 0
    public var fixesDelivered = 0
    public var fixesStored = 0
    /// Gaps between consecutive stored fixes, and the time from the first to the last: the
    /// mean gap is their quotient, so runs add up without a floating-point sum.
    public var gapCount = 0
    public var gapSpan = VirtualDuration.zero
    public var longestGap = VirtualDuration.zero
    /// Relaunches into the background, and the sum of their latencies.
    public var relaunchCount = 0
    public var relaunchLatencyTotal = VirtualDuration.zero
    public var gnssOnTime = VirtualDuration.zero
    /// Runs summed.
    public var runCount = 0
    /// The runs that broke at least one invariant.
    public var failingRunCount = 0
    /// The invariants broken, by name, in `Invariant.builtIn` order (the order checked).
    public var failedInvariants: [String] = []

    /// Nothing: the sum of no runs.
    public init() {}

    /// The figures of `record`, with the invariants of `invariants` it breaks.
    public init(_ record: RunRecord, invariants: [Invariant]) {
        let metrics = RunMetrics(record)
        fixesProduced = metrics.fixesProduced
        fixesDelivered = metrics.fixesDelivered
        fixesStored = metrics.fixesStored
        let instants = record.storedFixes.fixInstants
        gapCount = max(0, instants.count - 1)
        if let first = instants.min(), let last = instants.max() { gapSpan = last - first }
        longestGap = metrics.longestGap
        relaunchCount = metrics.relaunchLatencies.count
        relaunchLatencyTotal = metrics.relaunchLatencies.reduce(.zero, +)
        gnssOnTime = metrics.gnssOnTime
        runCount = 1
        failedInvariants = invariants.filter { !$0.check(record).isEmpty }.map(\.name)
        failingRunCount = failedInvariants.isEmpty ? 0 : 1
    }

    /// `RunMetrics.fixesProduced − fixesDelivered` (see the type's comment).
    public var fixesLost: Int { fixesProduced - fixesDelivered }

    /// The mean gap between consecutive stored fixes over every run summed, nil without one.
    public var meanGap: VirtualDuration? {
        gapCount == 0 ? nil : VirtualDuration(nanoseconds: gapSpan.nanoseconds / Int64(gapCount))
    }

    /// The longest gap, nil when no run stored two fixes.
    public var longestGapIfAny: VirtualDuration? { gapCount == 0 ? nil : longestGap }

    /// The mean relaunch latency, nil without a relaunch.
    public var meanRelaunchLatency: VirtualDuration? {
        relaunchCount == 0
            ? nil
            : VirtualDuration(
                nanoseconds: relaunchLatencyTotal.nanoseconds / Int64(relaunchCount))
    }

    /// Invariant failures: one per run and invariant it broke.
    public var invariantFailureCount: Int { failedInvariants.count }

    /// These figures and `other`'s, as one set of runs: counts and durations added (integers,
    /// so the order of adding does not matter), the longest gap the longer, the broken
    /// invariants appended.
    public func adding(_ other: RunFigures) -> RunFigures {
        var sum = self
        sum.fixesProduced += other.fixesProduced
        sum.fixesDelivered += other.fixesDelivered
        sum.fixesStored += other.fixesStored
        sum.gapCount += other.gapCount
        sum.gapSpan = sum.gapSpan + other.gapSpan
        sum.longestGap = max(sum.longestGap, other.longestGap)
        sum.relaunchCount += other.relaunchCount
        sum.relaunchLatencyTotal = sum.relaunchLatencyTotal + other.relaunchLatencyTotal
        sum.gnssOnTime = sum.gnssOnTime + other.gnssOnTime
        sum.runCount += other.runCount
        sum.failingRunCount += other.failingRunCount
        sum.failedInvariants += other.failedInvariants
        return sum
    }
}
