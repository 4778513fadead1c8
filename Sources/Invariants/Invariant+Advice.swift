// Advice (layer 5): guidance whose breach loses nothing by itself, reported as a warning
// naming its rule and source, a failure only when a team opts in.
import Simulation
import World

extension Invariant {
    /// `no-service-before-authorization` (advice, R-A13): at every launch with the
    /// authorization not determined, the process begins no session and starts no service
    /// before the first authorization change reaches it. Apple's guidance as source A
    /// quotes it; an app that starts early loses nothing by it (iOS answers with nothing until
    /// the user decides), so it is a warning, never a failure by default.
    public static var noServiceBeforeAuthorization: Invariant {
        Invariant(
            name: ServiceBeforeAuthorization.name,
            summary: "Undetermined, an app starts no location service before the user answers "
                + "(advice, R-A13).",
            severity: .advice(
                rule: "R-A13",
                source: "source A, quoting Apple: ask for authorization before starting "
                    + "location services")
        ) { record in ServiceBeforeAuthorization(record: record).violations() }
    }
}

/// The check of `Invariant.noServiceBeforeAuthorization`.
struct ServiceBeforeAuthorization {
    static let name = "no-service-before-authorization"
    let record: RunRecord

    func violations() -> [Violation] {
        let requests = record.locationRequests
        var found: [Violation] = []
        for process in record.processes where process.launch.authorization == .notDetermined {
            let told = record.log.uncommon.first { entry in
                guard entry.generation == process.generation, case .authorization = entry.kind
                else { return false }
                return true
            }?.instant
            let early = requests.first { request in
                guard request.generation == process.generation else { return false }
                let starts =
                    LocationService.started(by: request.request) != nil
                    || LocationService.startsNonSessionService(request.request)
                return starts && told.map { request.instant < $0 } ?? true
            }
            guard let early else { continue }
            found.append(
                Violation(
                    invariant: Self.name, instant: early.instant,
                    explanation: "process \(process.generation), launched at "
                        + "\(TimeText.clock(process.launchedAt)) with authorization not "
                        + "determined, asked for \(early.request) at "
                        + "\(TimeText.clock(early.instant)) before any authorization (R-A13)"))
        }
        return found
    }
}
