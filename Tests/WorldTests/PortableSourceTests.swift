// Lifeline's own sources reach no libm: a file that imports Foundation (or a C library) could
// call `sin` or `log` and make a trace or a report differ between platforms in the last bits;
// the others cannot, since the compiler finds no such function without an import. Every target
// under Sources/ is Lifeline's own code; the app code of Examples/ may call what it likes.
import Foundation
import Testing

@Suite("Portable sources")
struct PortableSourceTests {
    /// The libm functions whose results differ between platforms' C libraries.
    static let libmNames = [
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp",
        "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "cbrt", "hypot", "erf", "lgamma",
        "tgamma",
    ]
    /// Imports that bring libm into scope.
    static let libmImports = ["Foundation", "Glibc", "Darwin", "Musl", "ucrt"]

    /// Every Swift file under Sources/ (every target of Lifeline's own), named by its path
    /// from Sources/, with its text.
    static func lifelineSources() throws -> [(name: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map {
            (
                $0.path.replacingOccurrences(of: root.path + "/", with: ""),
                try String(contentsOf: $0, encoding: .utf8)
            )
        }
        .sorted { $0.name < $1.name }
    }

    @Test("no Lifeline source that imports Foundation or a C library calls a libm function")
    func noLibmCalls() throws {
        let sources = try Self.lifelineSources()
        #expect(sources.count > 200, "the sources of every target were found")
        #expect(
            sources.contains { $0.name.hasPrefix("LifelineKit/") }
                && sources.contains { $0.name.hasPrefix("World/") }, "targets beyond World")
        for (name, text) in sources {
            let imports = Self.libmImports.filter { text.contains("import \($0)\n") }
            if name.hasPrefix("World/PortableMath") {
                #expect(imports.isEmpty, "\(name) must use basic arithmetic only")
                continue
            }
            guard !imports.isEmpty else { continue }
            for function in Self.libmNames {
                let call = try Regex("(^|[^A-Za-z0-9_.])\(function)\\(")
                #expect(!text.contains(call), "\(name) calls \(function)(…) from libm")
            }
        }
    }
}
