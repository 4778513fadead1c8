// The user's tracking switch (`UserAction.trackingOn`, `.trackingOff`): the app is brought to
// the foreground as `open` does, then the toggle reaches the engine through its mailbox.
import Simulation
import Testing

@testable import World

/// An engine that notes each toggle with the state UIKit reports then.
final class ToggleRecordingEngine: AppEngine {
    /// Each toggle (`on`) and the app's state when it came, shared across launches.
    final class Notes { var toggles: [(on: Bool, launched: Bool)] = [] }
    let notes: Notes
    private var launched = false
    init(_ notes: Notes) { self.notes = notes }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        launched = launch.state == .foreground
    }

    func userDidSetTracking(_ on: Bool, services: LocationServices) {
        notes.toggles.append((on, launched))
    }
}

extension World {
    /// Each toggle the app saw, with its seconds and the app's state then.
    var toggles: [(seconds: Double, on: Bool, state: ProcessState)] {
        log.compactMap { entry in
            guard case .trackingToggled(let on) = entry.kind else { return nil }
            return ((entry.instant - .start).seconds, on, entry.appState)
        }
    }
}

@Suite("The user's tracking switch")
struct TrackingToggleTests {
    @Test("tracking on with the app not running launches it into the foreground, then toggles")
    func launchesFirst() {
        let notes = ToggleRecordingEngine.Notes()
        let world = runWorld(route: parked, until: 30, actions: [(10, .trackingOn)]) {
            ToggleRecordingEngine(notes)
        }
        let kinds = world.log.map(\.kind.description)
        #expect(kinds.first?.hasPrefix("launch") == true)
        #expect(world.toggles.map(\.on) == [true])
        #expect(world.toggles.map(\.seconds) == [10])
        #expect(world.toggles.map(\.state) == [.foreground])
        #expect(notes.toggles.map(\.launched) == [true])  // after `didLaunch`
    }

    @Test("tracking off with the app suspended brings it back to the foreground first")
    func bringsBackFromSuspension() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (5, .leave), (90, .trackingOff)]
        ) { ToggleRecordingEngine(ToggleRecordingEngine.Notes()) }
        let suspendedBefore = world.log.last { $0.instant < .start + .seconds(90) }
        #expect(suspendedBefore?.processState != .foreground)
        #expect(world.toggles.map(\.on) == [false])
        #expect(world.toggles.map(\.state) == [.foreground])
        let lifecycle = world.log.firstIndex {
            if case .lifecycle(.foreground) = $0.kind { true } else { false }
        }
        let toggle = world.log.firstIndex {
            if case .trackingToggled = $0.kind { true } else { false }
        }
        #expect(lifecycle != nil && toggle != nil && lifecycle! < toggle!)
    }

    @Test("R-D9: tracking on after a reboot unlocks the device first, as open does")
    func unlocksFirst() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (10, .reboot), (60, .trackingOn)]
        ) { ToggleRecordingEngine(ToggleRecordingEngine.Notes()) }
        let launch = world.log.last {
            if case .launch = $0.kind { true } else { false }
        }
        guard case .launch(let context) = launch?.kind else {
            Issue.record("no launch after the reboot")
            return
        }
        #expect(context.protectedDataAvailable)
        #expect(world.toggles.map(\.seconds) == [60])
    }

    @Test("An engine without the callback ignores the toggle; it is still logged")
    func defaultIgnores() {
        let world = runWorld(route: parked, until: 30, actions: [(0, .trackingOn)]) {
            TerminatingEngine(registers: false)
        }
        #expect(world.toggles.map(\.on) == [true])
        #expect(!world.log.contains { if case .dropped = $0.kind { true } else { false } })
    }
}
