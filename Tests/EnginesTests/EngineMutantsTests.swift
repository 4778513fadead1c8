// The mutants live outside the reference engines: each name is declared once, in the
// EngineMutants target, and the reference engines carry no trace of any mistake.
import EngineMutants
import Engines
import Foundation
import Testing

@Suite("Engine mutants")
struct EngineMutantsTests {
    /// The repository's root (this file is Tests/EnginesTests/EngineMutantsTests.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under `Sources/`, as (path from the root, text), sorted by path.
    static func sources() throws -> [(path: String, text: String)] {
        let folder = root.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map {
            (
                String($0.standardizedFileURL.path.dropFirst(root.path.count + 1)),
                try String(contentsOf: $0, encoding: .utf8)
            )
        }.sorted { $0.path < $1.path }
    }

    @Test("each mutant's name is written once in Sources/, in the EngineMutants target")
    func eachNameDeclaredOnce() throws {
        let sources = try Self.sources()
        #expect(sources.count > 100, "the sources were found")
        for mutant in Mutant.allCases {
            let literal = "\"\(mutant.rawValue)\""
            let holders = sources.filter { $0.text.contains(literal) }.map(\.path)
            #expect(holders == ["Sources/EngineMutants/Mutant.swift"], "\(mutant): \(holders)")
            let count =
                holders.isEmpty
                ? 0
                : sources.first { $0.path == holders[0] }!.text
                    .components(separatedBy: literal).count - 1
            #expect(count == 1, "\(mutant) is written \(count) times")
        }
    }

    @Test("the reference engines name no mutant and plant no flaws")
    func referenceEnginesAreClean() throws {
        let engines = try Self.sources().filter { $0.path.hasPrefix("Sources/Engines/") }
        #expect(engines.count > 10, "the engines were found")
        for file in engines {
            #expect(!file.text.lowercased().contains("flaw"), "\(file.path) mentions flaws")
            for mutant in Mutant.allCases {
                #expect(!file.text.contains(mutant.rawValue), "\(file.path) names \(mutant)")
            }
        }
    }

    @Test("every engine name is unique, and a mutant runs its base engine's type")
    func mutantsAreTheirBase() {
        let names = EngineChoice.all.map(\.name)
        #expect(Set(names).count == names.count)
        for mutant in Mutant.allCases {
            let choice = EngineChoice.mutant(mutant)
            #expect(EngineChoice(name: mutant.rawValue) == choice)
            #expect(choice.isMutant && choice.base == mutant.base && choice.kind == "mutant")
            let engine = choice.make()
            let expected = type(of: mutant.base.make(launchRules: LaunchRules()))
            #expect(type(of: engine) == expected, "\(mutant) is a \(type(of: engine))")
        }
    }
}
