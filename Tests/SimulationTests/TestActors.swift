// Actors the kernel tests drive: one that records what it receives and runs a script per
// message, so a test states its scenario in a few lines.
import Simulation

/// A message that carries a number and a label.
struct Note: CustomStringConvertible, Equatable {
    var number: Int
    var label: String = ""
    var description: String { label.isEmpty ? "note \(number)" : "note \(number) \(label)" }
}

/// Records every delivery (instant and message) and runs `script` on each.
final class Recorder: SimulationActor {
    private(set) var received: [(instant: Instant, note: Note)] = []
    var script: (Note, inout Scheduler<Note>) -> Void

    init(script: @escaping (Note, inout Scheduler<Note>) -> Void = { _, _ in }) {
        self.script = script
    }

    func receive(_ message: Note, context: inout Scheduler<Note>) {
        received.append((context.now, message))
        script(message, &context)
    }

    var numbers: [Int] { received.map(\.note.number) }
}
