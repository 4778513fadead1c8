// `lifeline corpus merge DEST SRC…`: folds corpus folders together (the shards' corpora of one
// search), keeping each entry once and refusing a conflict.
import Fuzzing
import Simulation

enum CorpusCommand {
    static let mergeUsage = """
        usage: lifeline corpus merge DEST SRC...

        Copies every entry of the corpus folders SRC... into the corpus folder DEST (made if
        missing), for the shards of a sharded search (`lifeline fuzz --shard K/N`) or several
        machines' corpora. Entries are named by a hash of their scenario, so an entry DEST or an
        earlier SRC has already (the same text apart from its '# found:' line) is a duplicate
        and left out. A same-named entry with another text is a conflict: nothing is written,
        and the exit code is 2, as it is when DEST cannot be written.
        """

    static let subcommands = [
        Subcommand(
            name: "merge", summary: "fold corpus folders into one, dropping duplicate entries",
            usage: mergeUsage, run: { try merge(&$0, output: $1) })
    ]

    static func merge(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        try reader.finish(allowingArguments: true)
        let folders = reader.arguments()
        guard let destination = folders.first else {
            throw UsageError("corpus merge needs a destination folder and a source folder")
        }
        guard folders.count >= 2 else {
            throw UsageError("corpus merge needs at least one source folder after \(destination)")
        }
        let summary: FuzzCorpus.MergeSummary
        do {
            summary = try FuzzCorpus(directory: destination, engines: reader.engines)
                .merge(from: Array(folders.dropFirst()))
        } catch let problem as FuzzCorpus.Problem {
            throw InputError("\(problem)")
        }
        output.standard(
            "merged \(PlainText.counted(folders.count - 1, "folder")) into \(destination): "
                + PlainText.counted(summary.copied.count, "entry", plural: "entries")
                + " copied, \(PlainText.counted(summary.duplicateCount, "duplicate")) left out")
        return 0
    }
}
