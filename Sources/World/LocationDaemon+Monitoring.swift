// The location daemon's monitoring (layer 3): significant change, monitor conditions and visits,
// and events held for a relaunched process until it recreates the service (R-A12).
import Simulation

extension LocationDaemon {
    // MARK: - Significant change (R-F7, R-A10)

    /// Starts significant-change monitoring; the first event is the cached location. A process
    /// that starts it again after a relaunch receives the events that woke it.
    func startSignificantChanges(_ context: inout Scheduler<WorldMessage>) {
        listensToSignificantChanges = true
        if !significantChangeRegistered {
            significantChangeRegistered = true
            let fix = makeFix(source: .cell, at: context.now)
            significantChangeLast = (route.position(at: context.now), nil)
            deliver(
                .event(.significantChange(fix), generation: generation), route: .deliver, &context)
            scheduleSignificantChange(&context)
        }
        deliverPending(.significantChange, monitor: nil, &context)
    }

    /// One timer for the next event: after the device is `significantChangeDistanceMeters`
    /// from the last event, no sooner than `significantChangeIntervalMin` after it, plus the
    /// cell-detection latency.
    func scheduleSignificantChange(_ context: inout Scheduler<WorldMessage>) {
        if let timer = significantChangeTimer { context.cancel(timer) }
        significantChangeTimer = nil
        guard significantChangeRegistered, let last = significantChangeLast,
            let crossing = route.firstInstant(
                after: context.now, fartherThan: policy.significantChangeDistanceMeters,
                from: last.coordinate)
        else { return }
        let earliest = last.instant.map { $0 + policy.significantChangeIntervalMin } ?? crossing
        let due = max(crossing, earliest) + policy.significantChangeLatency
        significantChangeTimer = context.send(
            .daemonTimer(.significantChange), to: context.currentActor, at: max(due, context.now))
    }

    func significantChangeDue(_ context: inout Scheduler<WorldMessage>) {
        guard significantChangeRegistered else { return }
        let fix = makeFix(source: .cell, at: context.now)
        significantChangeLast = (route.position(at: context.now), context.now)
        dispatch(.significantChange(fix), mechanism: .significantChange, monitor: nil, &context)
        scheduleSignificantChange(&context)
    }

    // MARK: - Monitor conditions (R-F8, R-F6, R-A12)

    /// Adds (or replaces) a circular condition. Reduced accuracy allows no region monitoring
    /// (R-F10), and an app holds at most `regionCountMax` (R-F8).
    func addCondition(
        monitor: String, name: String, center: Coordinate, radiusMeters: Double,
        _ context: inout Scheduler<WorldMessage>
    ) {
        guard accuracy == .full else { return }
        if let index = conditions.firstIndex(where: { $0.monitor == monitor && $0.name == name }) {
            if let timer = conditions[index].timer { context.cancel(timer) }
            conditions.remove(at: index)
        }
        guard conditions.count < policy.regionCountMax else { return }
        let inside = route.position(at: context.now).distance(to: center) <= radiusMeters
        conditions.append(
            Condition(
                monitor: monitor, name: name, center: center, radiusMeters: radiusMeters,
                inside: inside))
        scheduleConditionExit(conditions.count - 1, &context)
    }

    /// One timer for a condition's exit: past the radius plus the cushion, then the latency.
    /// Conditions run only after the first unlock following a boot (R-F6).
    func scheduleConditionExit(_ index: Int, _ context: inout Scheduler<WorldMessage>) {
        let condition = conditions[index]
        guard unlockedSinceBoot, condition.inside, condition.timer == nil,
            let crossing = route.firstInstant(
                after: context.now,
                fartherThan: condition.radiusMeters + policy.regionExitCushionMeters,
                from: condition.center)
        else { return }
        conditions[index].timer = context.send(
            .daemonTimer(.conditionExit(monitor: condition.monitor, condition: condition.name)),
            to: context.currentActor, at: crossing + policy.regionExitLatency)
    }

    func conditionExitDue(monitor: String, name: String, _ context: inout Scheduler<WorldMessage>) {
        guard let index = conditions.firstIndex(where: { $0.monitor == monitor && $0.name == name })
        else { return }
        conditions[index].timer = nil
        conditions[index].inside = false
        dispatch(
            .conditionExit(monitor: monitor, condition: name), mechanism: .region, monitor: monitor,
            &context)
    }

    // MARK: - Visits (R-F9)

    func startVisits(_ context: inout Scheduler<WorldMessage>) {
        listensToVisits = true
        if !visitsRegistered {
            visitsRegistered = true
            scheduleVisit(&context)
        }
        deliverPending(.visit, monitor: nil, &context)
    }

    /// One timer for the next visit event: an arrival after `visitArrivalDwell` of stillness,
    /// or, after an arrival, a departure once past `visitRadiusMeters` plus the latency.
    func scheduleVisit(_ context: inout Scheduler<WorldMessage>) {
        if let timer = visitTimer { context.cancel(timer) }
        visitTimer = nil
        guard visitsRegistered else { return }
        let due: Instant?
        if let arrival = visitArrival {
            due = route.firstInstant(
                after: context.now, fartherThan: policy.visitRadiusMeters, from: arrival
            )
            .map { $0 + policy.visitDepartureLatency }
        } else {
            due = route.firstStillPeriod(
                after: context.now, slowerThan: policy.stationarySpeedMetersPerSecond,
                lasting: policy.visitArrivalDwell
            ).map { $0 + policy.visitArrivalDwell }
        }
        if let due, due > context.now || visitArrival != nil {
            visitTimer = context.send(
                .daemonTimer(.visit), to: context.currentActor, at: max(due, context.now))
        }
    }

    func visitDue(_ context: inout Scheduler<WorldMessage>) {
        visitTimer = nil
        guard visitsRegistered else { return }
        if let arrival = visitArrival {
            visitArrival = nil
            dispatch(.visitDeparture(arrival), mechanism: .visit, monitor: nil, &context)
        } else {
            let place = route.position(at: context.now)
            visitArrival = place
            dispatch(.visitArrival(place), mechanism: .visit, monitor: nil, &context)
        }
        scheduleVisit(&context)
    }

    // MARK: - Events that wake or relaunch the app (R-A10, R-A12, R-F2)

    /// Delivers an event to a running app that listens for it; otherwise holds it and asks the
    /// operating system to wake or relaunch the app.
    func dispatch(
        _ event: MonitoringEvent, mechanism: RelaunchMechanism, monitor: String?,
        _ context: inout Scheduler<WorldMessage>
    ) {
        if processState.isRunning && listens(to: mechanism, monitor: monitor) {
            context.send(.event(event, generation: generation), to: app)
            return
        }
        pendingEvents.append((mechanism, event, monitor))
        if !processState.isRunning { context.send(.wake(mechanism), to: os) }
    }

    func listens(to mechanism: RelaunchMechanism, monitor: String?) -> Bool {
        switch mechanism {
        case .significantChange: listensToSignificantChanges
        case .region: monitor.map(openMonitors.contains) ?? false
        case .visit: listensToVisits
        case .session, .boot: false
        }
    }

    /// Hands held events to a process that now listens for them.
    func deliverPending(
        _ mechanism: RelaunchMechanism, monitor: String?, _ context: inout Scheduler<WorldMessage>
    ) {
        guard processState.isRunning else { return }
        var kept: [(mechanism: RelaunchMechanism, event: MonitoringEvent, monitor: String?)] = []
        for pending in pendingEvents {
            if pending.mechanism == mechanism && (monitor == nil || pending.monitor == monitor) {
                context.send(.event(pending.event, generation: generation), to: app)
            } else {
                kept.append(pending)
            }
        }
        pendingEvents = kept
    }

    /// The process did not recreate the services in time: their events are lost, and a
    /// condition whose event found no monitor stops being monitored (R-A12).
    func expirePendingEvents(_ context: inout Scheduler<WorldMessage>) {
        for pending in pendingEvents where pending.mechanism == .region {
            if case .conditionExit(let monitor, let name) = pending.event,
                let index = conditions.firstIndex(where: {
                    $0.monitor == monitor && $0.name == name
                })
            {
                if let timer = conditions[index].timer { context.cancel(timer) }
                conditions.remove(at: index)
            }
        }
        pendingEvents.removeAll()
    }
}
