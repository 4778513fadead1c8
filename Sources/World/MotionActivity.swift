// The motion coprocessor (layer 3): the activity Core Motion reports, derived from the route's
// ground speed, with the delay before a change is reported and the confidence it carries.
import Simulation

/// What the motion coprocessor classifies the device's movement as (R-M1). The route tells
/// speeds only, so cycling is never derived: it cannot be told from a slow drive (R-M2).
package enum MotionActivityKind: Int, Sendable, Equatable, CaseIterable {
    case unknown, stationary, walking, running, automotive, cycling
}

/// Core Motion's confidence in a classification (R-M4).
package enum MotionActivityConfidence: Int, Sendable, Equatable, Comparable {
    case low, medium, high

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One report of the motion coprocessor: an activity, made known at `reportInstant`, about a
/// spell of movement that began at `startInstant` (Core Motion's `startDate`, R-M3).
package struct MotionActivityReport: Sendable, Equatable {
    package var kind: MotionActivityKind
    package var confidence: MotionActivityConfidence
    /// When the spell of this activity began (before the report: the change is back-dated).
    package var startInstant: Instant
    /// When the coprocessor reported it.
    package var reportInstant: Instant
}

/// The numbers of the motion model, each an assumption (no Apple figure; R-M2–R-M4).
package struct MotionActivityModel: Sendable, Equatable {
    /// At or below this ground speed the device is stationary (R-M2, assumption: the policy's
    /// stationary threshold, `IOSPolicy.stationarySpeedMetersPerSecond`'s default).
    package var stationarySpeedMetersPerSecondMax = 0.5
    /// Up to this speed, walking (R-M2, assumption: a brisk walk is about 2 m/s).
    package var walkingSpeedMetersPerSecondMax = 2.5
    /// Up to this speed, running; above it, automotive (R-M2, assumption).
    package var runningSpeedMetersPerSecondMax = 4.5
    /// How long a new activity lasts before Core Motion reports it, with medium confidence;
    /// a spell shorter than this is never reported (R-M3, assumption: Apple documents no
    /// latency; open-source interpreters of Core Motion's history treat spells under a minute
    /// or two as noise).
    package var reportDelay = VirtualDuration.seconds(60)
    /// How much longer, after the first report, before the same spell is reported again with
    /// high confidence (R-M4, assumption).
    package var highConfidenceDelay = VirtualDuration.seconds(120)

    package init() {}

    /// The model every world uses.
    package static let standard = MotionActivityModel()

    /// The activity of a ground speed.
    package func kind(speedMetersPerSecond speed: Double) -> MotionActivityKind {
        if speed <= stationarySpeedMetersPerSecondMax { return .stationary }
        if speed <= walkingSpeedMetersPerSecondMax { return .walking }
        if speed <= runningSpeedMetersPerSecondMax { return .running }
        return .automotive
    }
}

/// Every report the motion coprocessor makes over a route, in report order (R-M1–R-M5).
///
/// The device is in its first spell since long before the run, so the first report is at the
/// start, with high confidence. Each later spell of a new activity that lasts `reportDelay`
/// is reported `reportDelay` after it began with medium confidence, and again
/// `highConfidenceDelay` later with high confidence if it still lasts. A shorter spell is
/// absorbed: the activity reported before goes on. The coprocessor records whether or not an
/// app runs; what reaches an app, and when, is the app's side (LifelineKit's
/// `CMMotionActivityManager`).
package final class MotionCoprocessor: @unchecked Sendable {
    package let model: MotionActivityModel
    private let route: Route
    // invariant: sorted by reportInstant, computed on first use
    private var computed: [MotionActivityReport]?

    package init(route: Route, model: MotionActivityModel = .standard) {
        self.route = route
        self.model = model
    }

    /// Every report, in report order.
    package var reports: [MotionActivityReport] {
        if let computed { return computed }
        let made = Self.reports(spells: spells(), model: model)
        computed = made
        return made
    }

    /// The latest report made at or before `instant` (there is always one: the start's).
    package func latestReport(atOrBefore instant: Instant) -> MotionActivityReport {
        let all = reports
        var low = 0
        var high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].reportInstant <= instant { low = middle + 1 } else { high = middle }
        }
        return all[max(low - 1, 0)]
    }

    /// The first report made after `instant`, if any.
    package func nextReport(after instant: Instant) -> MotionActivityReport? {
        reports.first { $0.reportInstant > instant }
    }

    // MARK: - Spells

    /// The route's spells of one activity: (activity, start), in time order; the last lasts
    /// forever.
    func spells() -> [(kind: MotionActivityKind, start: Instant)] {
        let points = route.waypoints
        var spells: [(kind: MotionActivityKind, start: Instant)] = [(.stationary, .start)]
        func enter(_ kind: MotionActivityKind, at instant: Instant) {
            if spells[spells.count - 1].kind == kind { return }
            if spells[spells.count - 1].start == instant {
                spells[spells.count - 1].kind = kind
                if spells.count > 1, spells[spells.count - 2].kind == kind { spells.removeLast() }
                return
            }
            spells.append((kind, instant))
        }
        for index in 0..<(points.count - 1) where points[index + 1].instant > points[index].instant
        {
            let kind = model.kind(speedMetersPerSecond: route.legSpeeds[index])
            enter(kind, at: max(points[index].instant, .start))
        }
        enter(.stationary, at: max(route.endInstant, .start))
        return spells
    }

    /// The reports of `spells` under `model`.
    static func reports(
        spells: [(kind: MotionActivityKind, start: Instant)], model: MotionActivityModel
    ) -> [MotionActivityReport] {
        precondition(!spells.isEmpty, "a route has a spell at the start")
        var reports = [
            MotionActivityReport(
                kind: spells[0].kind, confidence: .high, startInstant: spells[0].start,
                reportInstant: spells[0].start)
        ]
        var reported = spells[0].kind
        for index in 1..<spells.count {
            let spell = spells[index]
            let end: Instant? = index + 1 < spells.count ? spells[index + 1].start : nil
            let lasts = { (duration: VirtualDuration) in
                end.map { spell.start + duration <= $0 } ?? true
            }
            guard spell.kind != reported, lasts(model.reportDelay) else { continue }
            reported = spell.kind
            let first = spell.start + model.reportDelay
            reports.append(
                MotionActivityReport(
                    kind: spell.kind, confidence: .medium, startInstant: spell.start,
                    reportInstant: first))
            if lasts(model.reportDelay + model.highConfidenceDelay) {
                reports.append(
                    MotionActivityReport(
                        kind: spell.kind, confidence: .high, startInstant: spell.start,
                        reportInstant: first + model.highConfidenceDelay))
            }
        }
        return reports
    }
}
