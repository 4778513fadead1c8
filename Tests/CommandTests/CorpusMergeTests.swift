// `lifeline corpus merge DEST SRC…`: entries copied in once, a duplicate (the same entry, even
// found by another run) left out, a same-named entry with another scenario refused with
// nothing written, and a destination that cannot be written refused; each refusal exits 2.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Corpus merge")
struct CorpusMergeTests {
    static func entry(_ body: String, found: String) -> String {
        "# lifeline corpus 1\n# invariant: uploaded-once\n# found: \(found)\n" + body
    }

    static let first = "engine session\nhorizon 11m\n"
    static let second = "engine session\nhorizon 12m\n"

    @Test("two folders merge: each entry once, duplicates left out, whatever run found them")
    func mergesAndDropsDuplicates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let shared = "session/uploaded-once-aaaa.scenario"
        try folder.write("one/" + shared, Self.entry(Self.first, found: "shard 1/2 (case 4)"))
        try folder.write("two/" + shared, Self.entry(Self.first, found: "shard 2/2 (case 7)"))
        try folder.write(
            "two/session/uploaded-once-bbbb.scenario", Self.entry(Self.second, found: "case 9"))
        try folder.write("two/session/notes.txt", "not an entry\n")
        let result = runTool([
            "corpus", "merge", folder.path("merged"), folder.path("one"), folder.path("two"),
        ])
        #expect(result.code == 0)
        #expect(
            result.standard
                == "merged 2 folders into \(folder.path("merged")): 2 entries copied, "
                + "1 duplicate left out\n")
        let merged = try FileManager.default.contentsOfDirectory(
            atPath: folder.path("merged/session")
        ).sorted()
        #expect(merged == ["uploaded-once-aaaa.scenario", "uploaded-once-bbbb.scenario"])
        #expect(
            FileManager.default.contents(atPath: folder.path("merged/" + shared))
                == Data(Self.entry(Self.first, found: "shard 1/2 (case 4)").utf8))
        // Merging again changes nothing: everything is a duplicate now.
        let again = runTool(["corpus", "merge", folder.path("merged"), folder.path("two")])
        #expect(again.code == 0)
        #expect(again.standard.hasSuffix("0 entries copied, 2 duplicates left out\n"))
    }

    @Test("a same-named entry with another scenario is refused, and nothing is written")
    func refusesConflict() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let name = "session/uploaded-once-aaaa.scenario"
        try folder.write(
            "one/session/uploaded-once-0000.scenario", Self.entry(Self.first, found: "x"))
        try folder.write("one/" + name, Self.entry(Self.first, found: "x"))
        try folder.write("two/" + name, Self.entry(Self.second, found: "x"))
        let result = runTool([
            "corpus", "merge", folder.path("merged"), folder.path("one"), folder.path("two"),
        ])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(folder.path("two/" + name)): differs from "
                + "\(folder.path("one/" + name)), which has the same name: not merged, "
                + "nothing was written\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("merged")))
    }

    @Test("a destination that cannot be written (under a regular file) exits 2")
    func refusesUnwritableDestination() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "one/session/uploaded-once-aaaa.scenario", Self.entry(Self.first, found: "x"))
        let file = try folder.write("file", "not a folder\n")
        let result = runTool(["corpus", "merge", file + "/merged", folder.path("one")])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(file)/merged: the corpus folder cannot be written: \(file) is a file\n"
        )
        #expect(FileManager.default.contents(atPath: file) == Data("not a folder\n".utf8))
    }

    @Test("a missing source folder, or too few folders, exits 2")
    func refusesBadSources() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = runTool(["corpus", "merge", folder.path("merged"), folder.path("nonesuch")])
        #expect(missing.code == 2)
        #expect(missing.error == "lifeline: \(folder.path("nonesuch")): not a corpus folder\n")
        let alone = runTool(["corpus", "merge", folder.path("merged")])
        #expect(alone.code == 2)
        #expect(alone.error.hasPrefix("lifeline: corpus merge needs at least one source folder"))
    }
}
