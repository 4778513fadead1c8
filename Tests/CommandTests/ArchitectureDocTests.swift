// docs/architecture.md stays true: every file path it names exists, both walks are there, and
// every layer's modules it draws are targets of the package.
import Foundation
import Testing

@Suite("docs/architecture.md")
struct ArchitectureDocTests {
    static let text: String = {
        let url = DocsTests.root.appendingPathComponent("docs/architecture.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// Every `Sources/…`, `Examples/…` or `Tests/…` path in backquotes, in order, once each.
    static func namedPaths(in text: String) -> [String] {
        let pattern = /`((?:Sources|Examples|Tests|Properties)\/[^`\s]+\.swift)`/
        var seen: Set<String> = []
        return text.matches(of: pattern).map { String($0.output.1) }.filter {
            seen.insert($0).inserted
        }
    }

    @Test("every file path docs/architecture.md names exists")
    func everyNamedFileExists() {
        let paths = Self.namedPaths(in: Self.text)
        // Both walks name their files: at least a path for each step.
        #expect(paths.count >= 40, "\(paths.count) paths")
        for path in paths {
            let exists = FileManager.default.fileExists(
                atPath: DocsTests.root.appendingPathComponent(path).path)
            #expect(exists, "docs/architecture.md names \(path), which does not exist")
        }
    }

    @Test("the check finds a path that does not exist")
    func checkFindsAMissingPath() {
        let paths = Self.namedPaths(
            in: "see `Sources/World/Nowhere.swift` and `Sources/lifeline/main.swift`")
        #expect(paths == ["Sources/World/Nowhere.swift", "Sources/lifeline/main.swift"])
        #expect(
            !FileManager.default.fileExists(
                atPath: DocsTests.root.appendingPathComponent(paths[0]).path))
    }

    @Test("both walks are there, the fuzz run from main.swift and the CLLocationManager call")
    func bothWalks() {
        #expect(Self.text.contains("## Walk 1: `lifeline fuzz`, from `main.swift` to the report"))
        #expect(Self.text.contains("## Walk 2: a `CLLocationManager` call"))
        #expect(Self.text.contains("`Sources/lifeline/main.swift`"))
        #expect(Self.text.contains("`Sources/LifelineKit/CLLocationManager.swift`"))
    }

    @Test("every module the layer graph draws is a target of Package.swift")
    func layerGraphNamesTargets() throws {
        let manifest = try String(
            contentsOf: DocsTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let graph = try #require(
            Self.text.components(separatedBy: "```").dropFirst().first, "the graph's block")
        let modules = graph.matches(of: /\b[A-Z][A-Za-z]+\b/).map { String($0.output) }
        let targets = Set(
            manifest.matches(of: /name: "([A-Za-z-]+)"/).map { String($0.output.1) })
        let notModules: Set = ["API", "Apple", "Examples", "GPX", "JSON", "Info"]
        for module in modules where !notModules.contains(module) {
            #expect(targets.contains(module), "the layer graph draws \(module), no target")
        }
    }
}
