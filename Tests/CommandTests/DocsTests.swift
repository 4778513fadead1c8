// The repository reads on its own: every rule id the code and docs cite is defined in
// docs/rules.md, no file points outside the repository for its definitions, every relative
// link in the Markdown resolves, and the workflow and deployment files the docs show are
// quoted exactly.
import Foundation
import Testing

@Suite("Self-contained docs")
struct DocsTests {
    /// The repository's root (this file is Tests/CommandTests/DocsTests.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where rule ids are cited: folders scanned whole, and single files.
    static let citingPlaces = [
        "Sources", "Tests", "Properties", "docs", "README.md", "CONTRIBUTING.md",
    ]
    /// Where no file may point outside the repository: the citing places, the manifest and the
    /// scripts.
    static let checkedPlaces = citingPlaces + ["Package.swift", ".ci"]
    /// A path out of the repository to the material it was written from (spelt in two parts so
    /// that this file does not contain it).
    static let outsidePath = ".." + "/shared"

    /// A rule id: `R-`, the source's letter, a number.
    static var ruleID: Regex<Substring> { /\bR-[A-Z][0-9]+\b/ }
    /// The heading that defines a rule id in docs/rules.md.
    static var definition: Regex<(Substring, Substring)> { /^### (R-[A-Z][0-9]+)$/ }

    /// Every text file under `places` (relative to the root), as (relative path, text), sorted by
    /// path.
    static func files(in places: [String]) throws -> [(path: String, text: String)] {
        var found: [(path: String, text: String)] = []
        for place in places {
            let url = root.appendingPathComponent(place)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                continue
            }
            let urls =
                isFolder.boolValue
                ? (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?
                    .compactMap { $0 as? URL } ?? [])
                : [url]
            for file in urls {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue,
                    let text = try? String(contentsOf: file, encoding: .utf8)
                else { continue }
                let path = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
                found.append((path, text))
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The ids docs/rules.md defines.
    static func definedIDs() throws -> Set<String> {
        let text = try String(
            contentsOf: root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        return Set(
            text.split(separator: "\n", omittingEmptySubsequences: false).compactMap {
                line -> String? in
                guard let match = try? definition.wholeMatch(in: String(line)) else { return nil }
                return String(match.output.1)
            })
    }

    @Test("every rule id cited in the sources, tests, properties and docs is in docs/rules.md")
    func everyCitedRuleIsDefined() throws {
        let defined = try Self.definedIDs()
        let files = try Self.files(in: Self.citingPlaces)
        #expect(files.count > 100, "the files were found")
        var cited: Set<String> = []
        for file in files {
            let ids = Set(file.text.matches(of: Self.ruleID).map { String($0.output) })
            cited.formUnion(ids)
            for id in ids.sorted() where !defined.contains(id) {
                Issue.record("\(file.path) cites \(id), which docs/rules.md does not define")
            }
        }
        #expect(cited.count >= 50, "the code cites the rules (\(cited.count) ids found)")
    }

    @Test("docs/rules.md defines each id once, and every id it defines is cited somewhere")
    func rulesAreDefinedOnceAndUsed() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let headings = text.split(separator: "\n").compactMap {
            try? Self.definition.wholeMatch(in: String($0)).map { String($0.output.1) }
        }
        #expect(Set(headings).count == headings.count, "a rule id is defined twice")
        let others = try Self.files(in: Self.citingPlaces).filter { $0.path != "docs/rules.md" }
        let cited = Set(
            others.flatMap { $0.text.matches(of: Self.ruleID).map { String($0.output) } })
        for id in headings where !cited.contains(id) {
            Issue.record("docs/rules.md defines \(id), which nothing cites")
        }
    }

    @Test("no file refers to the material outside the repository")
    func nothingPointsOutside() throws {
        let files = try Self.files(in: Self.checkedPlaces)
        #expect(files.contains { $0.path == "Package.swift" }, "the manifest was read")
        for file in files where file.text.contains(Self.outsidePath) {
            Issue.record("\(file.path) refers to \(Self.outsidePath); point to docs/ instead")
        }
    }

    /// The fenced `yaml` blocks of a Markdown text.
    static func yamlBlocks(_ text: String) -> [String] {
        text.components(separatedBy: "```yaml\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }

    @Test("the sharded-fuzzing YAML the README or docs/ show is .github/workflows/fuzz.yml's")
    func shardedFuzzingWorkflowIsQuoted() throws {
        let workflow = try String(
            contentsOf: Self.root.appendingPathComponent(".github/workflows/fuzz.yml"),
            encoding: .utf8)
        let docs = try Self.files(in: ["README.md", "docs"]).filter { $0.path.hasSuffix(".md") }
        // The GitHub Actions jobs (the Kubernetes Job is YAML with `--shard` too).
        let quoted = docs.flatMap { file in
            Self.yamlBlocks(file.text)
                .filter { $0.contains("--shard") && $0.contains("runs-on:") }
                .map { (file.path, $0) }
        }
        #expect(!quoted.isEmpty, "the README or docs/ show the sharded-fuzzing workflow")
        for (path, block) in quoted {
            #expect(workflow.contains(block), "\(path)'s sharded-fuzzing YAML is not fuzz.yml's")
        }
    }

    /// The files that the README or docs/ must quote in full, each in one fenced `yaml` block.
    static let quotedFiles = [
        ".github/workflows/ci.yml", ".github/workflows/fuzz.yml",
        "deploy/kubernetes/fuzz-job.yaml",
    ]

    @Test("the README or docs/ quote each workflow and deployment file exactly, in full")
    func workflowFilesAreQuoted() throws {
        let docs = try Self.files(in: ["README.md", "docs"]).filter { $0.path.hasSuffix(".md") }
        let blocks = docs.flatMap { Self.yamlBlocks($0.text) }
        for path in Self.quotedFiles {
            let file = try String(
                contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let quoted = blocks.contains(file)
            #expect(quoted, "no yaml block of the README or docs/ is all of \(path), exactly")
        }
    }

    /// The Markdown files whose links are checked.
    static let markdownPlaces = ["README.md", "CONTRIBUTING.md", "docs", "Examples"]

    /// A Markdown link's or image's target: `](target)`.
    static var linkTarget: Regex<(Substring, Substring)> { /\]\(([^()\s]+)\)/ }

    /// A Markdown text without its fenced code blocks (code may hold `](`).
    static func prose(_ text: String) -> String {
        text.components(separatedBy: "```").enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "\n")
    }

    @Test("every relative link in the README, CONTRIBUTING.md, docs/ and Examples/ resolves")
    func relativeLinksResolve() throws {
        let files = try Self.files(in: Self.markdownPlaces).filter { $0.path.hasSuffix(".md") }
        #expect(files.contains { $0.path == "README.md" }, "the README was read")
        var checked = 0
        for file in files {
            let folder = Self.root.appendingPathComponent(file.path).deletingLastPathComponent()
            for match in Self.prose(file.text).matches(of: Self.linkTarget) {
                let target = String(match.output.1)
                if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") {
                    continue
                }
                let path = String(target.prefix { $0 != "#" })
                let url = folder.appendingPathComponent(path).standardizedFileURL
                checked += 1
                if !FileManager.default.fileExists(atPath: url.path) {
                    Issue.record("\(file.path) links to \(target), which does not exist")
                } else if !url.path.hasPrefix(Self.root.standardizedFileURL.path + "/") {
                    Issue.record("\(file.path) links to \(target), outside the repository")
                }
            }
        }
        #expect(checked >= 20, "the links were found (\(checked) checked)")
    }
}
