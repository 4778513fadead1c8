// Stateful testing (layer 2): command sequences drawn against a model, run against the
// system, checked after each step; they shrink like any other value.

/// A system under test described by a model: which commands are valid in each model state,
/// how each changes the model, and how to run one against the system and check it.
///
/// Sequences are drawn command by command against the model as it evolves, so every command
/// meets its precondition by construction, and an edited sequence (a step deleted while
/// shrinking) is redrawn against the model it now meets. Each step, with its coin, is one span.
public protocol StateMachine {
    associatedtype Model
    associatedtype System
    associatedtype Command: CustomStringConvertible

    /// The model before any command.
    func initialModel() -> Model
    /// The commands valid in `model` (their preconditions hold there).
    func commands(in model: Model) -> Gen<Command>
    /// The model after `command`.
    func apply(_ command: Command, to model: inout Model)
    /// A fresh system.
    func makeSystem() -> System
    /// Runs `command` on `system` and checks what it did against `model` (the model before
    /// the command); throws `PropertyFailure` when they disagree.
    func run(_ command: Command, on system: inout System, model: Model) throws
}

extension StateMachine {
    /// Command sequences of at most `lengthMax` steps.
    public func commandSequences(lengthMax: Int) -> Gen<[Command]> {
        precondition(lengthMax >= 0, "a length bound is not negative")
        let stepLabel = spanLabel("step", parts: [UInt64(lengthMax)])
        return Gen("commands", parts: [UInt64(lengthMax)]) { testCase in
            var model = initialModel()
            var sequence: [Command] = []
            // Stop with probability 1/32 when generating: long sequences reach deep states.
            while sequence.count < lengthMax, testCase.beginRepetition(stepLabel, stopOneIn: 32) {
                let command = commands(in: model).generate(testCase)
                apply(command, to: &model)
                sequence.append(command)
                testCase.endSpan()
            }
            return sequence
        }
    }

    /// Runs `commands` from a fresh system and the initial model, checking every step; a
    /// failure names the step.
    public func execute(_ commands: [Command]) throws {
        var system = makeSystem()
        var model = initialModel()
        for (step, command) in commands.enumerated() {
            do {
                try run(command, on: &system, model: model)
            } catch let failure as PropertyFailure {
                throw PropertyFailure("step \(step + 1), \(command): \(failure.message)")
            }
            apply(command, to: &model)
        }
    }
}
