// The location daemon's fixes (layer 3): one fix per interval while any consumer is active,
// made from the route with accuracy by source and seeded noise; the When In Use grace;
// stationary auto-pause and resume; automatic pause of managers.
import Simulation

extension LocationDaemon {
    /// True while some manager or live stream wants fixes.
    var hasActiveConsumer: Bool {
        managers.contains { ($0.updating && !$0.pausedBySystem) || $0.requestedLocation }
            || liveStreams.contains { !$0.paused }
    }

    /// Starts or stops the fix timer as consumers come and go. Fixes fall on a fixed grid,
    /// `fixPhase + k · fixInterval`, as a GNSS receiver's epochs do.
    func reconsiderFixes(_ context: inout Scheduler<WorldMessage>) {
        let wanted = hasActiveConsumer && processState.exists
        if wanted, fixTimer == nil {
            battery?.setLocationInUse(true, at: context.now)
            let interval = policy.fixInterval.nanoseconds
            let phase = fixPhase.nanoseconds
            let now = context.now.nanosecondsSinceStart
            let steps = now < phase ? 0 : (now - phase) / interval + 1
            fixTimer = context.send(
                .daemonTimer(.fix), to: context.currentActor,
                at: Instant(nanosecondsSinceStart: phase + steps * interval))
        } else if !wanted, let timer = fixTimer {
            battery?.setLocationInUse(false, at: context.now)
            context.cancel(timer)
            fixTimer = nil
        }
    }

    /// One fix epoch: every updating manager and live stream gets the fix, as delivery allows.
    func produceFix(_ context: inout Scheduler<WorldMessage>) {
        let fix = makeFix(source: .gnss, at: context.now)
        let still = fix.speedMetersPerSecond <= policy.stationarySpeedMetersPerSecond
        let withheld = locationWithheld()
        // Each manager and stream is changed as a copy, stored back once at the end of its
        // iteration (`changeObjects`).
        for index in managers.indices
        where (managers[index].updating && !managers[index].pausedBySystem)
            || managers[index].requestedLocation
        {
            var manager = managers[index]
            defer { changeObjects { $0.managers[index] = manager } }
            // R-G1: a one-time request takes this fix if it can reach the app, and ends.
            if manager.requestedLocation && withheld == nil {
                manager.requestedLocation = false
                if let timer = manager.requestTimer { context.cancel(timer) }
                manager.requestTimer = nil
                if !manager.updating || manager.pausedBySystem {
                    let update = LocationUpdate(
                        channel: .manager(manager.id),
                        fix: source(for: manager.desiredAccuracyMeters) == .gnss
                            ? fix
                            : makeFix(
                                source: source(for: manager.desiredAccuracyMeters), at: context.now)
                    )
                    sendToApp(.location(update), &context)
                    continue
                }
            } else if !manager.updating || manager.pausedBySystem {
                continue
            }
            if manager.pausesAutomatically && still {
                let since = manager.stillSince ?? context.now
                manager.stillSince = since
                if context.now - since >= policy.automaticPauseDelay {
                    manager.pausedBySystem = true  // R-F4: the app must restart it
                    if manager.hasDelegate {
                        sendToApp(.locationUpdatesPaused(manager: manager.id), &context)
                    }
                    continue
                }
            } else {
                manager.stillSince = nil
            }
            let managerFix =
                source(for: manager.desiredAccuracyMeters) == .gnss
                ? fix
                : makeFix(source: source(for: manager.desiredAccuracyMeters), at: context.now)
            if let last = manager.lastDelivered, manager.distanceFilterMeters > 0,
                managerFix.coordinate.distance(to: last) < manager.distanceFilterMeters
            {
                continue
            }
            if accuracy == .reduced {
                guard reducedFixDue(after: manager.reducedFixAt, at: context.now) else { continue }
                manager.reducedFixAt = context.now
            }
            manager.lastDelivered = managerFix.coordinate
            let update = LocationUpdate(channel: .manager(manager.id), fix: managerFix)
            sendToApp(.location(update), withheld: withheld, &context)
        }
        for index in liveStreams.indices where !liveStreams[index].paused {
            var stream = liveStreams[index]
            defer { changeObjects { $0.liveStreams[index] = stream } }
            var stationary = false
            if still {
                let since = stream.stillSince ?? context.now
                stream.stillSince = since
                if context.now - since >= policy.stationaryPauseDelay {
                    stationary = true
                    stream.paused = true  // R-C2: one stationary update, then pause
                }
            } else {
                stream.stillSince = nil
            }
            let channel = LocationUpdate.Channel.liveUpdates(stream.id)
            let suspension = liveUpdatesSuspension(withheld)
            if suspension != stream.suspendedFor {
                stream.suspendedFor = suspension
                if let suspension {
                    sendToApp(
                        .location(
                            LocationUpdate(channel: channel, fix: nil, diagnostics: suspension)),
                        &context)
                }
            }
            var diagnostics: LocationDiagnostics = stationary ? .stationary : []
            if accuracy == .reduced {
                // R-F10: a few fixes an hour; a stationary update is still told at once.
                guard stationary || reducedFixDue(after: stream.reducedFixAt, at: context.now)
                else { continue }
                stream.reducedFixAt = context.now
                diagnostics.insert(.accuracyLimited)
            }
            let update = LocationUpdate(channel: channel, fix: fix, diagnostics: diagnostics)
            sendToApp(.location(update), withheld: withheld, &context)
        }
        if liveStreams.contains(where: \.paused) { watchForMotion(&context) }
    }

    /// Whether a consumer last given a reduced-accuracy fix at `last` gets one at `now`
    /// (R-F10: `reducedAccuracyUpdateInterval` apart; the first at once).
    func reducedFixDue(after last: Instant?, at now: Instant) -> Bool {
        guard let last else { return true }
        return now - last >= policy.reducedAccuracyUpdateInterval
    }

    /// The flag that tells a live-updates stream why its locations are kept from the app, if
    /// the model knows one (R-C1): the user denied access (R-A3), or a When In Use app in the
    /// background past its grace has begun a session there, which does nothing (R-C5). Past
    /// the grace with no such session, nothing: bare live updates get no signal (R-A5, A).
    func liveUpdatesSuspension(_ withheld: DropReason?) -> LocationDiagnostics? {
        switch withheld {
        case .notAuthorized where authorization == .denied: .authorizationDenied
        case .whenInUseGraceOver where !deferredSessions.isEmpty: .insufficientlyInUse
        default: nil
        }
    }

    /// The source a manager's desired accuracy calls for (R-F10).
    func source(for desiredAccuracyMeters: Double) -> FixSource {
        if desiredAccuracyMeters <= policy.gnssDesiredAccuracyMetersMax { return .gnss }
        return desiredAccuracyMeters <= policy.wifiDesiredAccuracyMetersMax ? .wifi : .cell
    }

    /// A fix at `instant` from `source`: the route's position moved by seeded noise within the
    /// source's accuracy (R-F10); reduced accuracy draws a kilometre-scale accuracy.
    func makeFix(source: FixSource, at instant: Instant) -> Fix {
        // Drawn from a copy stored back at the end: a mutating call on the stored generator
        // made Swift check every access to it at run time.
        var noise = self.noise
        defer { self.noise = noise }
        let accuracyMeters: Double
        switch (accuracy, source) {
        case (.reduced, _):
            accuracyMeters =
                policy.reducedAccuracyMetersMin
                + (policy.reducedAccuracyMetersMax - policy.reducedAccuracyMetersMin)
                * noise.nextUnitDouble()
        case (.full, .gnss): accuracyMeters = policy.gnssAccuracyMeters
        case (.full, .wifi):
            accuracyMeters =
                policy.wifiAccuracyMetersMin
                + (policy.wifiAccuracyMetersMax - policy.wifiAccuracyMetersMin)
                * noise.nextUnitDouble()
        case (.full, .cell): accuracyMeters = policy.cellAccuracyMeters
        }
        // A point uniform in the disc of radius accuracy × fixNoiseRadiusFraction (rejection
        // sampling: no trigonometry).
        var north = 0.0
        var east = 0.0
        repeat {
            north = 2 * noise.nextUnitDouble() - 1
            east = 2 * noise.nextUnitDouble() - 1
        } while north * north + east * east > 1
        // The leg and the cosine are read and stored back as copies, as the generator is.
        var leg = routeLeg
        let state = route.state(at: instant, leg: &leg)
        routeLeg = leg
        let latitude = state.coordinate.latitude
        var cosine = latitudeCosine
        if cosine?.latitude != latitude {
            cosine = (latitude, PortableMath.cos(latitude * .pi / 180))
            latitudeCosine = cosine
        }
        let position = state.coordinate.offset(
            northMeters: north * accuracyMeters * policy.fixNoiseRadiusFraction,
            eastMeters: east * accuracyMeters * policy.fixNoiseRadiusFraction,
            cosφ: cosine!.cosine)
        return Fix(
            instant: instant, coordinate: position, horizontalAccuracyMeters: accuracyMeters,
            source: source, speedMetersPerSecond: state.speedMetersPerSecond)
    }

    /// Schedules one timer for when the device next moves (for paused live streams and an
    /// armed session relaunch).
    func watchForMotion(_ context: inout Scheduler<WorldMessage>) {
        guard motionTimer == nil,
            let moving = route.firstInstant(
                after: context.now, movingFasterThan: policy.stationarySpeedMetersPerSecond)
        else { return }
        motionTimer = context.setTimer(
            after: max(.zero, moving - context.now), .daemonTimer(.motionResumes))
    }

    /// The device moves again: paused live streams resume (R-C2), and an armed session
    /// relaunch asks for the app (R-B3, R-B4).
    func motionResumed(_ context: inout Scheduler<WorldMessage>) {
        changeObjects {
            for index in $0.liveStreams.indices where $0.liveStreams[index].paused {
                $0.liveStreams[index].paused = false
                $0.liveStreams[index].stillSince = nil
            }
        }
        if sessionRelaunchArmed { context.send(.wake(.session, boot: bootCount), to: os) }
    }

    func requestSessionRelaunchWhenMoving(_ context: inout Scheduler<WorldMessage>) {
        if route.speed(at: context.now) > policy.stationarySpeedMetersPerSecond {
            context.send(.wake(.session, boot: bootCount), to: os)
        } else {
            watchForMotion(&context)
        }
    }

    // MARK: - When In Use grace (R-A4, R-A5)

    func startGraceIfNeeded(_ context: inout Scheduler<WorldMessage>) {
        guard authorization == .whenInUse, !inUseInBackground, graceTimer == nil, !graceExpired
        else { return }
        graceTimer = context.setTimer(
            after: policy.whenInUseGrace, .daemonTimer(.graceEnded(generation: generation)))
    }

    /// The grace is over: nothing more reaches a When In Use app without background
    /// configuration or a Live Activity (R-C4); each updating manager gets `denied` after a
    /// delay, live streams nothing.
    func graceEnded(_ context: inout Scheduler<WorldMessage>) {
        guard processState != .foreground, !inUseInBackground, authorization == .whenInUse
        else { return }
        graceExpired = true
        // Built aside and stored once: appending to the stored array made Swift check every
        // access to it at run time, and `reconsiderGrace` reads it after every message.
        var timers = deniedTimers
        for manager in managers where manager.updating {
            timers.append(
                context.setTimer(
                    after: policy.deniedSignalDelay,
                    .daemonTimer(.deniedSignal(manager.id, generation: generation))))
        }
        deniedTimers = timers
    }

    /// Keeps the grace in step with what can change while the app is away: authorization
    /// (Always to When In Use, or back), background updates switched on or off, a Live
    /// Activity. An app that is in use, or not When In Use, has no grace; a When In Use app
    /// that is no longer in use in the background starts one (R-A3, R-A4).
    func reconsiderGrace(_ context: inout Scheduler<WorldMessage>) {
        let away = processState == .background || processState == .suspended
        if !away || authorization != .whenInUse || inUseInBackground {
            if graceTimer != nil || graceExpired || !deniedTimers.isEmpty {
                cancelGrace(&context)
                graceExpired = false
            }
        } else if graceTimer == nil && !graceExpired {
            startGraceIfNeeded(&context)
        }
    }

    func cancelGrace(_ context: inout Scheduler<WorldMessage>) {
        if let timer = graceTimer { context.cancel(timer) }
        graceTimer = nil
        for timer in deniedTimers { context.cancel(timer) }
        deniedTimers.removeAll()
    }
}
