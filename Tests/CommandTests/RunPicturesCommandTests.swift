// `lifeline run FILE --chrome-trace OUT --svg OUT`: both files written and named in the header,
// an existing file kept unless --replace, and exit 2 with a clear message for a directory or a
// path whose folder does not exist, before anything is written.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Run command pictures")
struct RunPicturesCommandTests {
    @Test("--chrome-trace and --svg write a JSON object and an SVG document, named in the header")
    func writesBoth() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let chrome = folder.path("run.json")
        let svg = folder.path("run.svg")
        let result = runTool(["run", path, "--chrome-trace", chrome, "--svg", svg])
        #expect(result.code == 0, "\(result.error)")
        let json = try #require(FileManager.default.contents(atPath: chrome))
        let object = try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        #expect(result.standard.contains("chrome    \(chrome) (\(events.count) events)\n"))
        #expect(result.standard.contains("svg       \(svg)\n"))
        let text = String(
            decoding: FileManager.default.contents(atPath: svg) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
        #expect(text.hasSuffix("</svg>\n"))
    }

    @Test("an existing file is kept, and nothing else written, unless --replace is given")
    func keepsFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let svg = try folder.write("kept.svg", "keep me\n")
        let chrome = folder.path("new.json")
        let kept = runTool(["run", path, "--chrome-trace", chrome, "--svg", svg])
        #expect(kept.code == 2)
        #expect(
            kept.error
                == "lifeline: \(svg): cannot write the SVG timeline: the file exists (pass "
                + "--replace to overwrite it)\n")
        #expect(kept.standard.isEmpty)
        #expect(FileManager.default.contents(atPath: svg) == Data("keep me\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: chrome), "nothing is written")
        let replaced = runTool(["run", path, "--chrome-trace", chrome, "--svg", svg, "--replace"])
        #expect(replaced.code == 0)
        let text = String(
            decoding: FileManager.default.contents(atPath: svg) ?? Data(), as: UTF8.self)
        #expect(text.contains("<svg "))
    }

    @Test("a directory, or a folder that does not exist, exits 2 and says which")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let directory = runTool(["run", path, "--chrome-trace", folder.path])
        #expect(directory.code == 2)
        #expect(
            directory.error
                == "lifeline: \(folder.path): cannot write the Chrome trace: it is a directory; "
                + "name a file\n")
        let missing = folder.path("no/such/folder/run.svg")
        let nowhere = runTool(["run", path, "--svg", missing])
        #expect(nowhere.code == 2)
        #expect(
            nowhere.error
                == "lifeline: \(missing): cannot write the SVG timeline: the file cannot be "
                + "written (does its folder exist?)\n")
        #expect(nowhere.standard.isEmpty)
    }

    @Test("one path for two outputs, or --replace alone, is a usage error")
    func usage() {
        let twice = runTool(["run", "x.scenario", "--svg", "a.out", "--chrome-trace", "a.out"])
        #expect(twice.code == 2 && twice.error.contains("a.out is named for two outputs"))
        let replace = runTool(["run", "x.scenario", "--replace"])
        #expect(replace.error.contains("--replace goes with --trace, --chrome-trace or --svg"))
    }
}
