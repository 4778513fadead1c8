// Source A's four probes as tracking engines, so that a record, the invariants and a sweep
// can run them beside the built-in engines.
import Engines
import Simulation
import World

/// One of source A's background probes (`BackgroundExperiment.Probe`) behind the
/// `TrackingEngine` face: a probe app that starts one kind of location request at launch and
/// does nothing else, so it has no tracking switch, stores nothing and tells no events.
///
/// The probes implement only `didLaunch`; every other callback is `AppEngine`'s default in the
/// probe and here alike, so a world around this engine runs exactly as around the probe.
package final class ProbeEngine: TrackingEngine {
    /// Which probe.
    package let probe: BackgroundExperiment.Probe
    private let app: any AppEngine

    package init(_ probe: BackgroundExperiment.Probe) {
        self.probe = probe
        app = probe.makeEngine()
    }

    package func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        app.didLaunch(launch, services: services)
    }

    /// A probe has no tracking switch: it asks for location at every launch.
    package func start(services: LocationServices) {}
    package func stop(services: LocationServices) {}

    package func state(at now: Instant) -> EngineState {
        EngineState(enabled: false, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }

    package var events: [TrackingEvent] { [] }
}
