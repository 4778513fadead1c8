// `CLLocationUpdate.liveUpdates(_:)` on the world: source C's (002) fitness loop pauses on a
// parked route and resumes when the device moves, and ending an iteration stops the world's
// stream.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// Source C's "automatically pause exercise recording": `for try await update in
/// CLLocationUpdate.liveUpdates(.fitness)`, recording while moving, paused on `isStationary`.
@MainActor final class WorkoutRecorder {
    let journal: Journal
    var paused = false
    private var task: Task<Void, any Error>?

    init(journal: Journal) { self.journal = journal }

    func start() {
        task = Task {
            for try await update in CLLocationUpdate.liveUpdates(.fitness) {
                if update.isStationary {
                    paused = true
                    journal.note("paused \(seconds())")
                } else if let location = update.location {
                    if paused { journal.note("resumed \(seconds())") }
                    paused = false
                    journal.locations.append(location)
                }
            }
            journal.note("ended \(seconds())")
        }
    }

    func stop() { task?.cancel() }

    /// Whole virtual seconds since the run's start, from `Date()`.
    private func seconds() -> Int { Int(Date().timeIntervalSince(VirtualClock.startDate)) }
}

/// Seconds since the run's start of the live updates the world delivered to the app.
func liveUpdateSeconds(_ world: World) -> [Double] {
    world.log.compactMap { entry in
        guard case .location(let update) = entry.kind, case .liveUpdates = update.channel
        else { return nil }
        return (entry.instant - .start).seconds
    }
}

@Suite struct LiveUpdatesTests {
    /// A 3-minute drive, 6 minutes parked, then a drive again.
    let parkedRoute = Route(
        start: home, headingDegrees: 90,
        segments: [
            .init(.drive, .minutes(3), speedMetersPerSecond: 4),
            .init(.park, .minutes(6)),
            .init(.drive, .minutes(3), speedMetersPerSecond: 4),
        ])

    @Test func fitnessLoopPausesOnAParkedRouteAndResumesWhenMoving() {
        let (world, journal) = runProbe(
            route: parkedRoute, until: 720, actions: [(0, .open)]
        ) { app, _ in
            let recorder = WorkoutRecorder(journal: app.journal)
            app.keptDelegates.append(recorder)
            recorder.start()
        }
        // Parked at 180 s, still for stationaryPauseDelay (2 min): one stationary update,
        // then nothing until the drive resumes at 540 s.
        let pauses = journal.notes.filter { $0.hasPrefix("paused") }
        let resumes = journal.notes.filter { $0.hasPrefix("resumed") }
        #expect(pauses.count == 1)
        #expect(resumes.count == 1)
        let pausedAt = Int(pauses.first?.split(separator: " ").last ?? "") ?? -1
        let resumedAt = Int(resumes.first?.split(separator: " ").last ?? "") ?? -1
        #expect((299...302).contains(pausedAt), "paused at \(pausedAt) s")
        #expect((540...560).contains(resumedAt), "resumed at \(resumedAt) s")
        let delivered = liveUpdateSeconds(world)
        #expect(!delivered.contains { $0 > Double(pausedAt) + 1 && $0 < 540 })
        #expect(delivered.contains { $0 > 600 })
        // Every location the loop recorded came from the world, stamped on the virtual clock.
        #expect(journal.locations.count > 300)
        #expect(
            journal.locations.allSatisfy {
                $0.timestamp.timeIntervalSince(VirtualClock.startDate) <= 720
            })
    }

    @Test func cancellingTheIteratingTaskStopsTheWorldsStream() {
        let (world, journal) = runProbe(
            route: drive(10), until: 120, actions: [(0, .open)]
        ) { app, _ in
            let started = WorkoutRecorder(journal: app.journal)
            app.keptDelegates.append(started)
            started.start()
            Task {
                try await Task.sleep(for: .seconds(30))
                started.stop()
            }
        }
        #expect(journal.notes.contains("ended 30"))
        let delivered = liveUpdateSeconds(world)
        #expect(delivered.contains { $0 > 25 && $0 < 30 })
        // Stopped: the world sends the stream nothing after the cancellation.
        #expect(!delivered.contains { $0 > 31 }, "delivered until \(delivered.last ?? 0) s")
    }

    @Test func aTaskCancelledBeforeItsFirstUpdateEndsAtOnceAndStopsTheStream() {
        let (world, journal) = runProbe(
            route: drive(10), until: 60, actions: [(0, .open)]
        ) { app, _ in
            let journal = app.journal
            let task = Task {
                var count = 0
                for try await _ in CLLocationUpdate.liveUpdates() { count += 1 }
                journal.note("ended after \(count)")
            }
            // Cancelled before it first runs: its first `next()` finds the task cancelled.
            task.cancel()
        }
        #expect(journal.notes.filter { $0.hasPrefix("ended") } == ["ended after 0"])
        #expect(liveUpdateSeconds(world).isEmpty, "\(liveUpdateSeconds(world))")
    }

    @Test func breakingTheLoopStopsTheWorldsStream() {
        let (world, journal) = runProbe(
            route: drive(10), until: 120, actions: [(0, .open)]
        ) { app, _ in
            let journal = app.journal
            Task {
                var count = 0
                for try await update in CLLocationUpdate.liveUpdates() where update.location != nil
                {
                    count += 1
                    if count == 10 { break }
                }
                journal.note("broke after \(count)")
            }
        }
        #expect(journal.notes.contains("broke after 10"))
        let delivered = liveUpdateSeconds(world)
        #expect(delivered.count >= 10 && delivered.count <= 12, "\(delivered)")
    }

    @Test func aDetachedTaskIteratesInItsProcess() {
        // `Task.detached` inherits no task-local: the iteration finds its process through the
        // process-local scope the engine set at launch.
        let (_, journal) = runProbe(
            route: drive(10), until: 60, actions: [(0, .open)]
        ) { app, _ in
            let journal = app.journal
            Task.detached {
                var count = 0
                for try await update in CLLocationUpdate.liveUpdates() where update.location != nil
                {
                    count += 1
                    if count == 3 { break }
                }
                journal.note("detached got \(count)")
            }
        }
        #expect(journal.notes.contains("detached got 3"))
    }

    @Test func iteratedOutsideASimulatedProcessTheSequenceIsEmpty() async throws {
        var count = 0
        for try await _ in CLLocationUpdate.liveUpdates() { count += 1 }
        #expect(count == 0)
    }

    @Test func diagnosticsMapTheWorldsFlags() {
        // Denied while iterating: one update without a location, flagged authorizationDenied.
        let (_, journal) = runProbe(
            route: drive(10), until: 60, actions: [(0, .open), (20, .setAuthorization(.denied))]
        ) { app, _ in
            let journal = app.journal
            Task {
                for try await update in CLLocationUpdate.liveUpdates() {
                    if update.authorizationDenied {
                        journal.note(
                            "denied location \(update.location == nil ? "nil" : "set") "
                                + "restricted \(update.authorizationRestricted) "
                                + "globally \(update.authorizationDeniedGlobally)")
                    }
                }
            }
        }
        #expect(journal.notes.contains("denied location nil restricted false globally false"))
    }
}
