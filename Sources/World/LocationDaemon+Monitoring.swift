// The location daemon's monitoring (layer 3): significant change, monitor conditions, legacy
// regions and visits, and the events they send the app, waking or relaunching it.
import Simulation

extension LocationDaemon {
    // MARK: - Significant change (R-F7, R-A10)

    /// Starts significant-change monitoring; the first event is the cached location. A process
    /// that starts it again after a relaunch receives the events that woke it (its mailbox
    /// held them).
    func startSignificantChanges(_ context: inout Scheduler<WorldMessage>) {
        if significantChangeRegistered {
            // Started again by a later process: the first event is the cached location
            // (R-F7), unless an event for it is already on its way (it is the latest one).
            if !significantChangeEventAwaitingProcess {
                let fix = makeFix(source: .cell, at: context.now)
                context.send(
                    .deliver(
                        .event(.significantChange(fix)), generation: generation,
                        withheld: eventWithheld(), boot: nil), to: app)
            }
            significantChangeEventAwaitingProcess = false
            return
        }
        significantChangeRegistered = true
        let fix = makeFix(source: .cell, at: context.now)
        significantChangeLast = (route.position(at: context.now), nil)
        context.send(
            .deliver(
                .event(.significantChange(fix)), generation: nil, withheld: eventWithheld(),
                boot: bootCount),
            to: app)
        scheduleSignificantChange(&context)
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
        dispatch(.significantChange(fix), &context)
        scheduleSignificantChange(&context)
    }

    // MARK: - Monitor conditions and legacy regions (R-F8, R-F6, R-B6, R-A10, R-A12)

    /// Adds (or replaces) a circular condition or legacy region. Returns false when it cannot
    /// be monitored: reduced accuracy allows no region monitoring (R-F10), and an app holds at
    /// most `regionCountMax` conditions and as many legacy regions (R-F8, F).
    func addCondition(
        _ key: RegionKey, center: Coordinate, radiusMeters: Double,
        _ context: inout Scheduler<WorldMessage>
    ) -> Bool {
        guard accuracy == .full else { return false }
        removeCondition(key, &context)
        // Monitor conditions and legacy regions each have their own limit (F).
        let sameKind = conditions.filter { $0.key.isLegacyRegion == key.isLegacyRegion }.count
        guard sameKind < policy.regionCountMax else { return false }
        let inside = route.position(at: context.now).distance(to: center) <= radiusMeters
        conditions.append(
            Condition(key: key, center: center, radiusMeters: radiusMeters, inside: inside))
        scheduleConditionCrossing(conditions.count - 1, &context)
        return true
    }

    /// Stops monitoring a condition or region, if it is monitored.
    func removeCondition(_ key: RegionKey, _ context: inout Scheduler<WorldMessage>) {
        guard let index = conditions.firstIndex(where: { $0.key == key }) else { return }
        if let timer = conditions[index].timer { context.cancel(timer) }
        conditions.remove(at: index)
    }

    /// One timer for a condition's next crossing, monitored continuously (R-F8): inside, its
    /// exit once the device is past the radius plus `regionExitCushionMeters`, then
    /// `regionExitLatency`; outside, its entry once the device is within the radius less
    /// `regionEntryCushionMeters`, then `regionEntryLatency`. Each event schedules the next, so
    /// an exit, a re-entry and a second exit each come. Conditions run only after the first
    /// unlock following a boot (R-F6).
    func scheduleConditionCrossing(_ index: Int, _ context: inout Scheduler<WorldMessage>) {
        let condition = conditions[index]
        guard unlockedSinceBoot, condition.timer == nil else { return }
        if condition.inside {
            guard
                let crossing = route.firstInstant(
                    after: context.now,
                    fartherThan: condition.radiusMeters + policy.regionExitCushionMeters,
                    from: condition.center)
            else { return }
            conditions[index].timer = context.send(
                .daemonTimer(.regionExit(condition.key)), to: context.currentActor,
                at: crossing + policy.regionExitLatency)
        } else {
            // A cushion as large as the radius leaves no point to enter: no entry is reported.
            let threshold = condition.radiusMeters - policy.regionEntryCushionMeters
            guard threshold > 0,
                let crossing = route.firstInstant(
                    after: context.now, within: threshold, of: condition.center)
            else { return }
            conditions[index].timer = context.send(
                .daemonTimer(.regionEntry(condition.key)), to: context.currentActor,
                at: crossing + policy.regionEntryLatency)
        }
    }

    /// A condition's exit (`entered` false) or entry is due: the event goes to the app, and the
    /// opposite crossing is scheduled.
    func regionCrossingDue(
        _ key: RegionKey, entered: Bool, _ context: inout Scheduler<WorldMessage>
    ) {
        guard let index = conditions.firstIndex(where: { $0.key == key }) else { return }
        conditions[index].timer = nil
        conditions[index].inside = entered
        conditions[index].lastState = entered ? .satisfied : .unsatisfied
        conditions[index].lastChange = context.now
        if conditions[index].reportsRecords, case .condition(let monitor, _) = key {
            dispatch(.conditionChanged(monitor: monitor, record(of: conditions[index])), &context)
            scheduleConditionCrossing(index, &context)
            return
        }
        switch (key, entered) {
        case (.condition(let monitor, let name), false):
            dispatch(.conditionExit(monitor: monitor, condition: name), &context)
        case (.condition(let monitor, let name), true):
            dispatch(.conditionEntry(monitor: monitor, condition: name), &context)
        case (.region(let identifier), false):
            dispatch(.regionExit(identifier: identifier), &context)
        case (.region(let identifier), true):
            dispatch(.regionEntry(identifier: identifier), &context)
        }
        scheduleConditionCrossing(index, &context)
    }

    /// `CLMonitor`'s first determination of a condition just added: when the state the app
    /// assumed (`unknown`, or a guess) is not the device's, an event with the true state comes
    /// at once (the determination's latency is not documented; ios-facts: CLMonitor). Not before
    /// the first unlock after a boot, when conditions do not run (R-F6).
    func determineInitialState(_ index: Int, _ context: inout Scheduler<WorldMessage>) {
        guard unlockedSinceBoot, case .condition(let monitor, _) = conditions[index].key else {
            return
        }
        let state: ConditionState = conditions[index].inside ? .satisfied : .unsatisfied
        guard conditions[index].lastState != state else { return }
        conditions[index].lastState = state
        conditions[index].lastChange = context.now
        dispatch(.conditionChanged(monitor: monitor, record(of: conditions[index])), &context)
    }

    /// The record of a monitor condition, as `Monitor.record(for:)` gives it.
    func record(of condition: Condition) -> MonitorRecord {
        let identifier =
            switch condition.key {
            case .condition(_, let name): name
            case .region(let identifier): identifier
            }
        return MonitorRecord(
            condition: CircularGeographicCondition(
                center: condition.center, radius: condition.radiusMeters),
            lastEvent: MonitorEvent(
                identifier: identifier, state: condition.lastState, date: condition.lastChange))
    }

    /// The records of the conditions of monitor `name`, in the order added.
    func monitorRecords(of name: String) -> [MonitorRecord] {
        conditions.compactMap { condition in
            guard case .condition(let monitor, _) = condition.key, monitor == name else {
                return nil
            }
            return record(of: condition)
        }
    }

    // MARK: - Visits (R-F9)

    func startVisits(_ context: inout Scheduler<WorldMessage>) {
        guard !visitsRegistered else { return }
        visitsRegistered = true
        scheduleVisit(&context)
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
            dispatch(.visitDeparture(arrival), &context)
        } else {
            let place = route.position(at: context.now)
            visitArrival = place
            dispatch(.visitArrival(place), &context)
        }
        scheduleVisit(&context)
    }

    // MARK: - Events that wake or relaunch the app (R-A10, R-A12, R-F2)

    /// Sends an event to the app's mailbox, for whichever process listens for it. The mailbox,
    /// which knows whether the app runs, asks the operating system to wake or relaunch it.
    func dispatch(_ event: MonitoringEvent, _ context: inout Scheduler<WorldMessage>) {
        if case .significantChange = event, !processState.isRunning {
            significantChangeEventAwaitingProcess = true
        }
        context.send(
            .deliver(.event(event), generation: nil, withheld: eventWithheld(), boot: bootCount),
            to: app)
    }
}
