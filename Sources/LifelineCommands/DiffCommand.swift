// `lifeline diff`: the same runs under two policies; the runs whose outcome changes, where
// their traces part, and the figures that moved.
import Engines
import Foundation
import Fuzzing
import Invariants
import Research
import Simulation
import World

enum DiffCommand {
    static let usage = """
        usage: lifeline diff --policy A --policy B [--scenarios DIR | --generated N | --probes]
                             [--engine NAME|all] [--seed S] [--jobs J]

        Runs the same runs under policy A and policy B (each a preset name, measured, iOS16,
        iOS17, iOS18 or iOS26, or a policy file), which replace each run's own policy whole,
        and lists the runs whose
        outcome changes: the invariants broken, the fixes lost (fixes iOS produced for the app
        that never reached its code) or the fixes stored. For each: the first delivery at which
        the two traces part (virtual time, actor, message) and every figure that moved.
          --scenarios  the .scenario files in DIR, each run by every engine
          --generated  the fuzzer's first N valid scenarios for each engine (default 20), from
                       --seed (default 1)
          --probes     source A's background experiment, for its four probes and the engines
          --engine     an engine from `lifeline engines`, or all (default): every correct one
          --jobs       runs side by side (default: every core); the list is the same for any J

        Exits as diff(1) does: 0 when no run changes its outcome, 1 when some do, 2 for bad
        input, so that a CI job can watch a rule.
        """

    static let command = Subcommand(
        name: "diff", summary: "the same runs under two policies: what changes, and where",
        usage: usage, run: { try run(&$0, output: $1) })

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        var policies: [(name: String, policy: IOSPolicy)] = []
        for text in try reader.texts("--policy") {
            policies.append((text, try ExperimentCommand.policy(named: text)))
        }
        let engines = try FuzzCommand.engineChoice(&reader)
        let directory = try reader.text("--scenarios")
        let generatedText = try reader.text("--generated")
        let probes = try reader.flag("--probes")
        guard [directory != nil, generatedText != nil, probes].count(where: { $0 }) <= 1 else {
            throw UsageError("--scenarios, --generated and --probes exclude one another")
        }
        let generated =
            try generatedText.map { text in
                guard let count = Int(text), (1...100_000).contains(count) else {
                    throw UsageError(
                        "--generated takes a whole number from 1 to 100000, not '\(text)'")
                }
                return count
            } ?? SweepCommand.defaultGenerated
        let seed = try reader.seed("--seed", default: 1)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try reader.integer(
            "--jobs", in: 1...FuzzCommand.jobCountMax,
            default: min(cores, FuzzCommand.jobCountMax))
        try reader.finish()
        guard policies.count == 2 else {
            throw UsageError("diff needs two policies: --policy A --policy B")
        }

        var cases: [PolicyDiff.Case] = []
        if probes {
            for subject in SweepSubject.probes + engines.map(SweepSubject.engine) {
                cases.append(
                    .init(
                        name: "background-experiment", subject: subject,
                        run: .backgroundExperiment(subject)))
            }
        } else if let directory {
            let paths = try SweepCommand.scenarioFiles(in: directory)
            let scenarios = try paths.map {
                try ScenarioFiles.scenario(atPath: $0, engines: reader.engines)
            }
            for engine in engines {
                for (path, run) in zip(paths, SweepRun.runs(of: .engine(engine), on: scenarios)) {
                    cases.append(.init(name: path, subject: .engine(engine), run: run))
                }
            }
        } else {
            for engine in engines {
                for (caseIndex, run) in SweepRun.generated(
                    for: engine, count: generated, seed: seed)
                {
                    cases.append(
                        .init(name: "case \(caseIndex)", subject: .engine(engine), run: run))
                }
            }
        }
        var diff = PolicyDiff(before: policies[0].policy, after: policies[1].policy, cases: cases)
        diff.jobCount = jobs
        let progress = SweepProgress(output: output, command: "diff")
        let changes: [PolicyDiff.Change]
        do {
            changes = try diff.run(progress: progress.update)
        } catch let problem as PolicyDiff.Problem {
            throw InputError("diff: \(problem.description)")
        }
        output.standard(
            text(changes, names: (policies[0].name, policies[1].name), caseCount: cases.count))
        return changes.isEmpty ? 0 : 1
    }

    /// The report: a summary line, then each changed run with its figures and parting.
    static func text(
        _ changes: [PolicyDiff.Change], names: (String, String), caseCount: Int
    ) -> String {
        var lines = [
            "\(names.0) → \(names.1): \(changes.count) of \(PlainText.counted(caseCount, "run")) "
                + (changes.count == 1 ? "changes its" : "change their") + " outcome"
        ]
        var perSubject: [(name: String, count: Int, storedBefore: Int, storedAfter: Int)] = []
        for change in changes {
            if let index = perSubject.firstIndex(where: { $0.name == change.subject.name }) {
                perSubject[index].count += 1
                perSubject[index].storedBefore += change.before.fixesStored
                perSubject[index].storedAfter += change.after.fixesStored
            } else {
                perSubject.append(
                    (change.subject.name, 1, change.before.fixesStored, change.after.fixesStored))
            }
        }
        for subject in perSubject {
            lines.append(
                "  \(subject.name): \(PlainText.counted(subject.count, "run")); fixes stored in them "
                    + "\(subject.storedBefore) → \(subject.storedAfter)")
        }
        for change in changes {
            lines.append("")
            lines.append("\(change.subject.name)  \(change.name)")
            for moved in movedFigures(change) { lines.append("  " + moved) }
            if let parting = change.parting {
                lines.append("  traces part at delivery \(parting.index):")
                lines.append("    \(names.0): " + side(parting.before))
                lines.append("    \(names.1): " + side(parting.after))
            }
        }
        return lines.joined(separator: "\n")
    }

    static let actorNames = ["os", "daemon", "app", "network"]

    static func side(_ side: (instant: Instant, actor: UInt32, text: String)?) -> String {
        guard let side else { return "(the trace has ended)" }
        let actor =
            Int(side.actor) < actorNames.count ? actorNames[Int(side.actor)] : "actor \(side.actor)"
        return "\(TimeText.clock(side.instant)) \(actor) \(side.text)"
    }

    /// Every figure that differs, `before → after`, then the invariants whose verdict changed.
    static func movedFigures(_ change: PolicyDiff.Change) -> [String] {
        var moved: [String] = []
        for metric in SweepMetric.all where metric.name != "invariant-failures" {
            let (before, after) = (metric.text(change.before), metric.text(change.after))
            if before != after {
                moved.append(
                    "\(metric.title): \(before.isEmpty ? "–" : before) → "
                        + "\(after.isEmpty ? "–" : after) \(metric.unit)")
            }
        }
        let broken = (change.before.failedInvariants, change.after.failedInvariants)
        for name in Invariant.builtIn.map(\.name) {
            let (was, now) = (broken.0.contains(name), broken.1.contains(name))
            if was != now {
                moved.append("\(name): \(was ? "FAIL" : "ok") → \(now ? "FAIL" : "ok")")
            }
        }
        return moved
    }
}
