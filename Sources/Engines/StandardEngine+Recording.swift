// The standard engine's recording clock (layer 4): one fix per interval, the GPS resting at
// 3 km between fixes and woken 15 s before the next is due (R-D4), the accuracy filter and the
// overdue rule (R-D11).
import Simulation
import World

/// When the next fix is due, and what the engine has seen since (R-D4, R-D11). Fixes before
/// `due` are ignored (D: "everything between is ignored").
struct RecordingClock {
    /// The instant from which the next fix is recorded.
    var due: Instant?
    /// False until the first fix is recorded: the clock's grid starts at that fix (a fix due
    /// "now" at the start comes with the next epoch, not at the instant tracking began).
    var anchored = false
    /// The pending timer that switches the configured accuracy on (R-D4).
    var warmUpTimer: TimerID?
    /// The most accurate fix filtered out since `due`: the overdue rule records it (R-D11).
    var best: Fix?
}

extension StandardEngine {
    /// A fix while recording: ignored before it is due; recorded if accurate enough; otherwise
    /// filtered out, unless the fix is late, when the best seen since it was due is recorded
    /// (R-D11).
    /// Why a fix between two due instants is not kept.
    static let notDue = "not due: the engine records one fix each interval, R-D4"

    func consider(_ fix: Fix, services: LocationServices) {
        guard let due = clock.due, fix.instant >= due else {
            tell(.fixRejected(fix, reason: Self.notDue))
            return
        }
        // A warm-up timer that could not fire in time (R-D4): switch now.
        setDesiredAccuracy(settings.accuracy.desiredAccuracyMeters)
        if fix.horizontalAccuracyMeters <= settings.minimumAccuracyMeters {
            accept(fix, due: due, services: services)
            return
        }
        tell(
            .fixRejected(
                fix,
                reason: "accuracy \(Int(fix.horizontalAccuracyMeters.rounded())) m worse than "
                    + "the minimum \(Int(settings.minimumAccuracyMeters.rounded())) m, R-D11"))
        if clock.best.map({ fix.horizontalAccuracyMeters < $0.horizontalAccuracyMeters }) ?? true {
            clock.best = fix
        }
        if fix.instant >= due + settings.overdueDelay, let best = clock.best {
            accept(best, due: due, services: services)  // the overdue rule (R-D11)
        }
    }

    /// Records `fix`, moves the clock one interval on (from the instant it was due, so the
    /// clock does not drift; from the fix itself for the first fix and after a gap), and rests
    /// the GPS until the warm-up (R-D4).
    private func accept(_ fix: Fix, due: Instant, services: LocationServices) {
        recorder.accept(fix, services: services)
        tell(.fixAccepted(fix))
        var next = due + settings.interval
        if !clock.anchored || next <= fix.instant { next = fix.instant + settings.interval }
        clock.due = next
        clock.anchored = true
        clock.best = nil
        guard settings.usesLowPowerBetweenFixes else { return }
        setDesiredAccuracy(settings.betweenFixesAccuracyMeters)
        let warmUp = next + (.zero - settings.warmUpLead)
        cancelWarmUp(services: services)
        if warmUp <= services.now {
            setDesiredAccuracy(settings.accuracy.desiredAccuracyMeters)
        } else {
            clock.warmUpTimer = services.scheduledTimer(after: warmUp - services.now)
        }
    }

    /// The warm-up timer: the configured accuracy goes on `warmUpLead` before the fix is due
    /// (R-D4: "15 s before the next fix is due it switches to your configured accuracy").
    func warmUpTimerFired(_ timer: TimerID) {
        guard timer == clock.warmUpTimer else { return }
        clock.warmUpTimer = nil
        guard recording else { return }
        setDesiredAccuracy(settings.accuracy.desiredAccuracyMeters)
    }

    func cancelWarmUp(services: LocationServices) {
        guard let timer = clock.warmUpTimer else { return }
        services.invalidateTimer(timer)
        clock.warmUpTimer = nil
    }
}
